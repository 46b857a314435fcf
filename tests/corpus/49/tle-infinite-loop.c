/* expect: TLE */
/* Spins forever on the first call (busy loop on a volatile flag that never changes). */
void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    volatile int converged = 0;
    (void)x; (void)wq; (void)wk; (void)wv; (void)wo; (void)mask; (void)n_heads; (void)causal;
    while (!converged) {
        /* "wait until the softmax converges" */
    }
    for (int i = 0; i < B * T * d; i++) out[i] = 0;
}
