/* expect: WA */
/* Copies each token's own value into its output, right only where a token sees nothing but itself. */
#include <string.h>

void varlen_attention(float *out, const float *q, const float *k, const float *v,
                      const int *cu_seqlens, int B, int total, int H, int D)
{
    (void)q, (void)k, (void)cu_seqlens, (void)B;
    memcpy(out, v, sizeof(float) * (size_t)total * H * D);
}
