/* expect: WA */
/* Returns the input unchanged: out = x, as if the layer were a residual
 * connection with nothing added. */
#include <string.h>

void mha(float *out, const float *x,
         const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    (void)wq; (void)wk; (void)wv; (void)wo; (void)mask; (void)n_heads; (void)causal;
    memcpy(out, x, sizeof(float) * (size_t)B * T * d);
}
