/* expect: WA */
/* Security probe: redefines memcmp to always report "equal", then outputs zeros. A judge that compares in the learner's address space would be fooled; this must still be WA. */
#include <stddef.h>
#include <string.h>

int memcmp(const void *a, const void *b, size_t n)
{
    (void)a; (void)b; (void)n;
    return 0;
}

int bcmp(const void *a, const void *b, size_t n)
{
    (void)a; (void)b; (void)n;
    return 0;
}

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    (void)x; (void)wq; (void)wk; (void)wv; (void)wo; (void)mask; (void)n_heads; (void)causal;
    for (long i = 0; i < (long)B * T * d; i++) out[i] = 0.0f;
}
