/* wasm: RE "wrote through a NULL pointer" */
/* Writes through a pointer just past NULL (a struct field of a NULL struct):
 * not NULL itself, so only the check of the bytes at address 0 sees it. */
#include <stdint.h>
static volatile uintptr_t small = 64;
void mha(float *out, const float *x, const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    (void)x; (void)wq; (void)wk; (void)wv; (void)wo; (void)mask; (void)n_heads; (void)causal;
    float *p = (float *)small;
    p[3] = 1.0f;
    for (int i = 0; i < B * T * d; i++) out[i] = 0.0f;
}
