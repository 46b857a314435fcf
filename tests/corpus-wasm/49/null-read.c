/* wasm: RE "NULL pointer at line 12" */
/* Reads through a NULL pointer: wasm memory has no unmapped page at 0, so only
 * the compiled-in NULL check (-fsanitize=null) catches it, with its line. */
#include <stddef.h>
static const float *volatile nowhere = NULL;
void mha(float *out, const float *x, const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    (void)x; (void)wq; (void)wk; (void)wv; (void)wo; (void)mask; (void)n_heads; (void)causal;
    const float *p = nowhere;
    float first;
    first = p[0];
    for (int i = 0; i < B * T * d; i++) out[i] = first;
}
