/* wasm: RE "the stack grew past its 8 MiB" */
/* Unbounded recursion with 1 KiB frames in linear memory (the C stack): the
 * stack is linked first, so running off its bottom traps instead of
 * overwriting the program's static data. */
static int deeper(volatile char *prev, unsigned n)
{
    volatile char frame[1024];
    frame[0] = prev ? prev[0] + 1 : 0;
    return deeper(frame, n + 1) + frame[1023];
}
void mha(float *out, const float *x, const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    (void)x; (void)wq; (void)wk; (void)wv; (void)wo; (void)mask; (void)n_heads; (void)causal;
    out[0] = (float)deeper(0, 0);
    for (int i = 1; i < B * T * d; i++) out[i] = 0.0f;
}
