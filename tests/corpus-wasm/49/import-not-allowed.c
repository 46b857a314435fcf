/* wasm: RE "import not allowed" */
/* Asks the host for a function the judge does not provide, by naming a wasm
 * import directly: the module is refused before it runs. */
__attribute__((import_module("env"), import_name("system"))) int host_system(const char *cmd);
void mha(float *out, const float *x, const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    (void)x; (void)wq; (void)wk; (void)wv; (void)wo; (void)mask; (void)n_heads; (void)causal;
    host_system("touch /tmp/pwned-by-learner");
    for (int i = 0; i < B * T * d; i++) out[i] = 0.0f;
}
