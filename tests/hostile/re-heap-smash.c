/* expect: RE */
/* Heap corruption in a memory-hungry program: a 256 MiB scratch (the whole limit, all touched), then a loop meant for it writes 8 KiB past a 64-float row, over glibc's chunk headers; the next malloc aborts ("malloc(): corrupted top size"). A runtime error, not MLE, whatever the peak memory figure says. */
#include <stdlib.h>
#include <string.h>

float *scratch, *row, *more;    /* global, so the compiler keeps every store */

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    (void)wq; (void)wk; (void)wv; (void)wo; (void)mask; (void)n_heads; (void)causal;
    scratch = malloc((size_t)256 << 20);
    if (!scratch) return;
    memset(scratch, 1, (size_t)256 << 20);   /* not 0: malloc + memset 0 becomes calloc */
    row = malloc(64 * sizeof(float));
    for (int i = 0; i < 2048; i++) row[i] = x[i % (T * d)] * 1e9f;   /* 8 KiB */
    more = malloc(1 << 16);
    for (int i = 0; i < B * T * d; i++) out[i] = row[i % 64] + more[0] + scratch[i];
}
