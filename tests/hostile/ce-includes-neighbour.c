/* expect: CE */
/* Copies a classmate: includes the file graded beside it (ac-honest.c, in the same folder in the class soak and here) and renames its function. Only the one file judged may be read. */
#define mha classmate_mha
#include "ac-honest.c"
#undef mha

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    classmate_mha(out, x, wq, wk, wv, wo, mask, B, T, d, n_heads, causal);
}
