/* expect: MLE */
/* Allocates 8 MiB blocks in a loop, touches all of each and never frees them (kept in a global list), until the memory limit is hit. */
#include <stdlib.h>
#include <string.h>

char *block_list;     /* each block starts with a pointer to the previous one */

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    size_t block = (size_t)8 << 20;
    (void)x; (void)wq; (void)wk; (void)wv; (void)wo; (void)mask; (void)n_heads; (void)causal;
    for (;;) {
        char *p = malloc(block);                /* no NULL check, never freed */
        memset(p, 7, block);
        memcpy(p, &block_list, sizeof block_list);
        block_list = p;
    }
    for (int i = 0; i < B * T * d; i++) out[i] = 0.0f;
}
