/* expect: CE */
/* Wrong signature: returns int instead of void (conflicts with the force-included prototype). */
#include <string.h>

int mha(float *out, const float *x, const float *wq, const float *wk,
        const float *wv, const float *wo, const unsigned char *mask,
        int B, int T, int d, int n_heads, int causal)
{
    (void)x; (void)wq; (void)wk; (void)wv; (void)wo; (void)mask; (void)n_heads; (void)causal;
    memset(out, 0, sizeof(float) * B * T * d);
    return 0;
}
