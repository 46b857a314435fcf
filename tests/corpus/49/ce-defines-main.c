/* expect: CE */
/* Defines main as well as mha (the ABI says no main): duplicate main at link time. */
#include <stdio.h>

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    (void)x; (void)wq; (void)wk; (void)wv; (void)wo; (void)mask; (void)n_heads; (void)causal;
    for (int i = 0; i < B * T * d; i++) out[i] = 0.0f;
}

int main(void)
{
    float out[4], x[4] = {1, 0, 1, 0}, w[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    mha(out, x, w, w, w, w, NULL, 1, 1, 4, 2, 1);
    printf("verdict: AC\n");
    return 0;
}
