/* expect: CE */
/* Defines mha2 instead of mha: compiles, but the link fails with an undefined reference to mha. */
void mha2(float *out, const float *x, const float *wq, const float *wk,
          const float *wv, const float *wo, const unsigned char *mask,
          int B, int T, int d, int n_heads, int causal)
{
    (void)x; (void)wq; (void)wk; (void)wv; (void)wo; (void)mask; (void)n_heads; (void)causal;
    for (int i = 0; i < B * T * d; i++) out[i] = 0.0f;
}
