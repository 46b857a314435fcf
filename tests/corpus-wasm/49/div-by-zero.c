/* wasm: RE "integer division by zero" */
/* Integer division by a zero that only shows at run time: wasm's i32.div_s traps. */
void mha(float *out, const float *x, const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    (void)x; (void)wq; (void)wk; (void)wv; (void)wo; (void)mask; (void)causal;
    volatile int heads = n_heads - n_heads;
    int D = d / heads;
    for (int i = 0; i < B * T * d; i++) out[i] = (float)D;
}
