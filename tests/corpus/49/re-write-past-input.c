/* expect: RE */
/* A stray write past the end of the input wo (as a scratch array sized at an earlier, smaller call would make): RE, and the words say an input is written by nothing. */
#include <string.h>

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    (void)x, (void)wq, (void)wk, (void)wv, (void)mask, (void)n_heads, (void)causal;
    memset(out, 0, sizeof(float) * B * T * d);
    ((float *)wo)[d * d] = 1.0f;
}
