/* expect: WA */
/* Writes zeros for every query, as if every encoder were empty. */
#include <string.h>

void cross_attention(float *out, const float *q, const float *k, const float *v,
                     const unsigned char *enc_mask, int B, int H, int T, int S, int D)
{
    (void)q, (void)k, (void)v, (void)enc_mask, (void)S;
    memset(out, 0, sizeof(float) * (size_t)B * H * T * D);
}
