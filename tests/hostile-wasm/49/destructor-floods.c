/* expect: AC */
/* Right answers, then a destructor that prints 200 KiB: it runs in no call.
 * Natively it ran after the last answer, and its flood was OLE on a case that
 * had passed (wasm, whose module has no destructors, said AC); now neither
 * backend runs it. */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void honest_mha(float *out, const float *x, const float *wq, const float *wk,
                       const float *wv, const float *wo, const unsigned char *mask,
                       int B, int T, int d, int n_heads, int causal)
{
    int D = d / n_heads;
    float scale = 1.0f / sqrtf((float)D);
    float *qkv = malloc(sizeof(float) * 3 * (size_t)T * d);
    float *ctx = malloc(sizeof(float) * (size_t)T * d);
    float *p = malloc(sizeof(float) * (size_t)T);
    if (!qkv || !ctx || !p) return;
    float *q = qkv, *k = qkv + (size_t)T * d, *v = qkv + 2 * (size_t)T * d;
    for (int b = 0; b < B; b++) {
        const float *xb = x + (size_t)b * T * d;
        memset(qkv, 0, sizeof(float) * 3 * (size_t)T * d);
        for (int t = 0; t < T; t++)
            for (int i = 0; i < d; i++) {
                float xi = xb[t * d + i];
                for (int j = 0; j < d; j++) {
                    q[t * d + j] += xi * wq[i * d + j];
                    k[t * d + j] += xi * wk[i * d + j];
                    v[t * d + j] += xi * wv[i * d + j];
                }
            }
        for (int h = 0; h < n_heads; h++)
            for (int i = 0; i < T; i++) {
                float *c = ctx + i * d + h * D, top = -INFINITY, sum = 0;
                for (int j = 0; j < T; j++) {
                    p[j] = -INFINITY;
                    if ((causal && j > i) || (mask && !mask[b * T + j])) continue;
                    float dot = 0;
                    for (int e = 0; e < D; e++) dot += q[i * d + h * D + e] * k[j * d + h * D + e];
                    p[j] = dot * scale;
                    if (p[j] > top) top = p[j];
                }
                memset(c, 0, sizeof(float) * D);
                if (top == -INFINITY) continue;
                for (int j = 0; j < T; j++) sum += (p[j] = expf(p[j] - top));
                for (int j = 0; j < T; j++)
                    for (int e = 0; e < D; e++) c[e] += p[j] / sum * v[j * d + h * D + e];
            }
        float *ob = out + (size_t)b * T * d;
        for (int t = 0; t < T; t++)
            for (int col = 0; col < d; col++) {
                float acc = 0;
                for (int m = 0; m < d; m++) acc += ctx[t * d + m] * wo[m * d + col];
                ob[t * d + col] = acc;
            }
    }
    free(qkv);
    free(ctx);
    free(p);
}

__attribute__((destructor)) static void bye(void)
{
    for (int i = 0; i < 4000; i++) printf("flood line %d ..................................\n", i);
}

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    honest_mha(out, x, wq, wk, wv, wo, mask, B, T, d, n_heads, causal);
}
