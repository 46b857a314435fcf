/* expect: MLE */
/* Aligned scratch tiles (aligned_alloc and posix_memalign, 4 MiB each) allocated per head and never freed, touched, until the memory runs out; a NULL is not checked. */
#include <stdlib.h>
#include <string.h>

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    (void)x; (void)wq; (void)wk; (void)wv; (void)wo; (void)mask; (void)causal;
    for (int round = 0;; round++) {
        for (int h = 0; h < n_heads; h++) {
            float *tile = aligned_alloc(64, 4 << 20);
            void *other = NULL;
            posix_memalign(&other, 64, 4 << 20);
            memset(tile, 0, 4 << 20);
            memset(other, 0, 4 << 20);
        }
        if (round < 0) break;
    }
    for (int i = 0; i < B * T * d; i++) out[i] = 0;
}
