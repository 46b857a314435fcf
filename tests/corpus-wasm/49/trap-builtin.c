/* wasm: RE "unreachable" */
/* __builtin_trap(), as a hand-made assert: the wasm instruction unreachable. */
void mha(float *out, const float *x, const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    (void)x; (void)wq; (void)wk; (void)wv; (void)wo; (void)mask; (void)n_heads; (void)causal;
    if (B * T * d > 0) __builtin_trap();
    out[0] = 0.0f;
}
