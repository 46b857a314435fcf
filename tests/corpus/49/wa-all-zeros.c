/* expect: WA */
/* Gives up: fills the whole output with zeros (every element written, no NaN). */
#include <string.h>

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    (void)x; (void)wq; (void)wk; (void)wv; (void)wo; (void)mask; (void)n_heads; (void)causal;
    memset(out, 0, sizeof(float) * (size_t)B * T * d);
}
