/* expect: WA */
/* Writes zeros everywhere: the shape of a solution without the attention. */
#include <string.h>

void sdpa(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    (void)q; (void)k; (void)v; (void)mask; (void)S; (void)causal;
    memset(out, 0, sizeof(float) * (size_t)B * H * T * D);
}
