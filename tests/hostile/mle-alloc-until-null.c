/* expect: MLE */
/* Careful allocation loop: 1 MiB blocks until malloc says NULL, each touched, then frees them and answers zeros. The failed malloc is the memory limit: MLE. */
#include <stdlib.h>
#include <string.h>

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    (void)x; (void)wq; (void)wk; (void)wv; (void)wo; (void)mask; (void)n_heads; (void)causal;
    void **chain = NULL, **block;
    while ((block = malloc(1 << 20))) {
        memset(block, 1, 1 << 20);
        block[0] = chain;
        chain = block;
    }
    while (chain) {
        block = chain[0];
        free(chain);
        chain = block;
    }
    for (int i = 0; i < B * T * d; i++) out[i] = 0;
}
