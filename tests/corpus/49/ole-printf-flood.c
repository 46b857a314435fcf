/* expect: OLE */
/* Debug print in a tight loop that never ends: megabytes of output (limit is 64 KiB). */
#include <stdio.h>

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    (void)wq; (void)wk; (void)wv; (void)wo; (void)mask; (void)n_heads; (void)causal;
    for (unsigned long i = 0;; i++)
        printf("debug: i=%lu x[0]=%f B=%d T=%d d=%d\n", i, x[0], B, T, d);
    out[0] = 0;
}
