/* expect: CE */
/* Includes /dev/zero: an endless file of NUL bytes; the compiler must be stopped by the judge's compile limits. */
#include "/dev/zero"

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    (void)x; (void)wq; (void)wk; (void)wv; (void)wo; (void)mask; (void)n_heads; (void)causal;
    for (int i = 0; i < B * T * d; i++) out[i] = 0.0f;
}
