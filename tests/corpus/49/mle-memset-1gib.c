/* expect: MLE */
/* Allocates a 1 GiB scratch buffer and touches all of it with memset (limit is 256 MiB); no NULL check. */
#include <stdlib.h>
#include <string.h>

char *scratch_pool;   /* global, "kept for later calls", so the allocation cannot be optimised away */

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    size_t big = (size_t)1 << 30;
    (void)x; (void)wq; (void)wk; (void)wv; (void)wo; (void)mask; (void)n_heads; (void)causal;
    scratch_pool = malloc(big);
    memset(scratch_pool, 1, big);
    for (int i = 0; i < B * T * d; i++) out[i] = 0.0f;
}
