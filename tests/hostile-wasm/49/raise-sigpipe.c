/* expect: RE */
/* wasm cause: "abort() was called" */
/* raise() of a signal with no words of its own: natively told by its name
 * (SIGPIPE), in wasm as an abort, since WASI's raise() can only end the run
 * (wasm/README.md, "What differs from native"). */
#include <signal.h>

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    (void)out, (void)x, (void)wq, (void)wk, (void)wv, (void)wo, (void)mask;
    (void)B, (void)T, (void)d, (void)n_heads, (void)causal;
    raise(SIGPIPE);
}
