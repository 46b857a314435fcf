/* expect: CE */
/* Syntax error: a missing semicolon and an unbalanced brace. */
#include <math.h>

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    int D = d / n_heads
    for (int i = 0; i < B * T * d; i++) {
        out[i] = 0;
}
