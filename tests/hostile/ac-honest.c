/* expect: AC */
/* The honest answer alone: shows honest_mha.h is right, so the AC of every probe below means its attack failed. */
#include "honest_mha.h"

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    honest_mha(out, x, wq, wk, wv, wo, mask, B, T, d, n_heads, causal);
}
