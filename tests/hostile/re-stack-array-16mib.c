/* expect: RE */
/* A 16 MiB score matrix as a local array: twice the 8 MiB stack, a stack overflow (RE), not a memory limit. */
#include <string.h>

static float sum_scores(int n)
{
    volatile float scores[4 << 20];       /* 16 MiB on the stack */
    for (int i = (4 << 20) - 1; i >= 0; i -= 1024) scores[i] = (float)(i % n);
    return scores[n];
}

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    (void)x; (void)wq; (void)wk; (void)wv; (void)wo; (void)mask; (void)n_heads; (void)causal;
    float s = sum_scores(T);
    for (int i = 0; i < B * T * d; i++) out[i] = s;
}
