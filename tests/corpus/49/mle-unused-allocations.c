/* expect: MLE; wasm: TLE */
/* Allocates and fills 1 MiB blocks in a loop and never uses them again: gcc keeps the calls (MLE), clang removes them as unobservable, leaving an endless empty loop. */
#include <stdlib.h>
#include <string.h>

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    (void)x; (void)wq; (void)wk; (void)wv; (void)wo; (void)mask; (void)n_heads; (void)causal;
    for (;;) {
        char *scratch = malloc(1 << 20);   /* meant as a work buffer, never freed */
        memset(scratch, 0xff, 1 << 20);   /* poisoned, to catch reads before writes */
    }
    for (int i = 0; i < B * T * d; i++) out[i] = 0.0f;
}
