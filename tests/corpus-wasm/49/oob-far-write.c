/* wasm: RE "memory access out of bounds" */
/* Writes 3 GiB past out: natively a segmentation fault; in wasm past the end of
 * the module's whole memory, the one access wasm itself traps. */
void mha(float *out, const float *x, const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    (void)x; (void)wq; (void)wk; (void)wv; (void)wo; (void)mask; (void)n_heads; (void)causal;
    volatile unsigned long far = 3ul << 30;
    out[far / sizeof(float)] = 1.0f;
    for (int i = 0; i < B * T * d; i++) out[i] = 0.0f;
}
