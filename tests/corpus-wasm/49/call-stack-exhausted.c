/* wasm: RE "call stack is exhausted" */
/* Unbounded recursion whose frames live in wasm locals, not in memory: the
 * engine's own call stack runs out (a RangeError in JavaScript). */
static volatile int stop;
static long deeper(long n)
{
    if (stop) return n;
    return deeper(n + 1) * 3 + 1;
}
void mha(float *out, const float *x, const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    (void)x; (void)wq; (void)wk; (void)wv; (void)wo; (void)mask; (void)n_heads; (void)causal;
    out[0] = (float)deeper(0);
    for (int i = 1; i < B * T * d; i++) out[i] = 0.0f;
}
