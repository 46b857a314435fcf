/* expect: RE */
/* The whole T x T score matrix per head as a 32 MiB local array cleared with memset from its low end, the far end of the stack first: a stack overflow, however the fault address lands. */
#include <string.h>

static float head_scores(const float *x, int n)
{
    float scores[2048 * 4096];
    memset(scores, 0, sizeof scores);
    for (int i = 0; i < n; i++) scores[i * 4097] = x[i];
    float s = 0;
    for (int i = 0; i < n; i++) s += scores[i * 4097];
    return s;
}

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    (void)wq; (void)wk; (void)wv; (void)wo; (void)mask; (void)n_heads; (void)causal;
    float s = head_scores(x, T);
    for (int i = 0; i < B * T * d; i++) out[i] = s;
}
