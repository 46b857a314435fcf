/* expect: CE */
/* Wrong signature: out declared as double * (conflicts with the force-included prototype). */
void mha(double *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    (void)x; (void)wq; (void)wk; (void)wv; (void)wo; (void)mask; (void)n_heads; (void)causal;
    for (int i = 0; i < B * T * d; i++) out[i] = 0.0;
}
