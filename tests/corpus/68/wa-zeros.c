/* expect: WA */
/* Writes zeros into every output, as the starter does. */
#include <string.h>

void varlen_attention(float *out, const float *q, const float *k, const float *v,
                      const int *cu_seqlens, int B, int total, int H, int D)
{
    (void)q, (void)k, (void)v, (void)cu_seqlens, (void)B;
    memset(out, 0, sizeof(float) * (size_t)total * H * D);
}
