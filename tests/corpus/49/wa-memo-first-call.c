/* expect: WA depends_on_earlier_calls */
/* "Caches" the answer: computes the first call correctly, stores it in a static buffer and returns that for every later call. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

static float *cache;
static size_t cache_n;

static void attend(float *out, const float *x, const float *wq, const float *wk,
                   const float *wv, const float *wo, const unsigned char *mask,
                   int B, int T, int d, int n_heads, int causal)
{
    int D = d / n_heads;
    float *q = malloc(sizeof(float) * T * d), *k = malloc(sizeof(float) * T * d);
    float *v = malloc(sizeof(float) * T * d), *y = malloc(sizeof(float) * T * d);
    float *p = malloc(sizeof(float) * T);
    for (int b = 0; b < B; b++) {
        const float *xb = x + (size_t)b * T * d;
        for (int t = 0; t < T; t++)
            for (int j = 0; j < d; j++) {
                float a = 0, c = 0, e = 0;
                for (int i = 0; i < d; i++) {
                    a += xb[t * d + i] * wq[i * d + j];
                    c += xb[t * d + i] * wk[i * d + j];
                    e += xb[t * d + i] * wv[i * d + j];
                }
                q[t * d + j] = a; k[t * d + j] = c; v[t * d + j] = e;
            }
        for (int h = 0; h < n_heads; h++)
            for (int i = 0; i < T; i++) {
                float mx = -INFINITY, sum = 0;
                for (int j = 0; j < T; j++) {
                    p[j] = -INFINITY;
                    if ((causal && j > i) || (mask && !mask[b * T + j])) continue;
                    float s = 0;
                    for (int e = 0; e < D; e++) s += q[i * d + h * D + e] * k[j * d + h * D + e];
                    p[j] = s / sqrtf((float)D);
                    if (p[j] > mx) mx = p[j];
                }
                for (int j = 0; j < T; j++) { p[j] = mx == -INFINITY ? 0 : expf(p[j] - mx); sum += p[j]; }
                for (int e = 0; e < D; e++) {
                    float a = 0;
                    for (int j = 0; j < T; j++) a += p[j] * v[j * d + h * D + e];
                    y[i * d + h * D + e] = sum > 0 ? a / sum : 0;
                }
            }
        for (int t = 0; t < T; t++)
            for (int c = 0; c < d; c++) {
                float a = 0;
                for (int m = 0; m < d; m++) a += y[t * d + m] * wo[m * d + c];
                out[((size_t)b * T + t) * d + c] = a;
            }
    }
    free(q); free(k); free(v); free(y); free(p);
}

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    size_t n = (size_t)B * T * d;
    if (!cache) {
        attend(out, x, wq, wk, wv, wo, mask, B, T, d, n_heads, causal);
        cache = malloc(sizeof(float) * n);
        memcpy(cache, out, sizeof(float) * n);
        cache_n = n;
        return;
    }
    for (size_t i = 0; i < n; i++) out[i] = i < cache_n ? cache[i] : 0.0f;   /* "already computed" */
}
