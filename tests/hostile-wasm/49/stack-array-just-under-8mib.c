/* expect: RE; wasm: WA */
/* A local array 4 KiB short of 8 MiB, touched end to end: in wasm the
 * learner's code has the whole 8 MiB stack, natively the runner's frames and
 * the environment share it (wasm/README.md, "What differs from native"). It
 * runs in wasm, and answers zeros: WA there, where natively the stack ran out. */
#include <string.h>

static float sum_of(volatile char *big, size_t n)
{
    float s = 0.0f;
    for (size_t i = 0; i < n; i += 4096) s += (float)big[i];
    return s;
}

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    (void)x, (void)wq, (void)wk, (void)wv, (void)wo, (void)mask, (void)n_heads, (void)causal;
    char big[(8 << 20) - 4096];
    memset(big, 0, sizeof big);
    float s = sum_of(big, sizeof big);
    for (int i = 0; i < B * T * d; i++) out[i] = s;
}
