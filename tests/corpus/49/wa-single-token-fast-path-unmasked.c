/* expect: WA @batch */
/* A T == 1 fast path ("one token attends only to itself: out = (x Wv) Wo") that forgets the padding mask, so a padded lone token gets its value instead of zeros. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* y[n, d] = x[n, d] . w[d, d], i-k-j order so the inner loop runs along w's rows */
static void matmul(float *y, const float *x, const float *w, int n, int d)
{
    for (int t = 0; t < n; t++) {
        float *yt = y + (size_t)t * d;
        const float *xt = x + (size_t)t * d;
        memset(yt, 0, sizeof(float) * d);
        for (int i = 0; i < d; i++) {
            float a = xt[i];
            const float *wi = w + (size_t)i * d;
            for (int j = 0; j < d; j++) yt[j] += a * wi[j];
        }
    }
}

void mha(float *out, const float *x,
         const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    int D = d / n_heads;
    float scale = 1.0f / sqrtf((float)D);
    if (T == 1) {   /* one token attends only to itself: softmax of one score is 1 */
        float *vv = malloc(sizeof(float) * d);
        for (int b = 0; b < B; b++) {
            matmul(vv, x + (size_t)b * d, wv, 1, d);
            matmul(out + (size_t)b * d, vv, wo, 1, d);
        }
        free(vv);
        return;
    }
    float *Q = malloc(sizeof(float) * T * d), *K = malloc(sizeof(float) * T * d);
    float *V = malloc(sizeof(float) * T * d), *cat = malloc(sizeof(float) * T * d);
    float *p = malloc(sizeof(float) * T);
    for (int b = 0; b < B; b++) {
        const float *xb = x + (size_t)b * T * d;
        const unsigned char *mb = mask ? mask + (size_t)b * T : NULL;
        matmul(Q, xb, wq, T, d);
        matmul(K, xb, wk, T, d);
        matmul(V, xb, wv, T, d);
        for (int h = 0; h < n_heads; h++) {
            int f0 = h * D;
            for (int i = 0; i < T; i++) {
                int last = causal ? i : T - 1;
                float m = -INFINITY;
                for (int j = 0; j <= last; j++) {
                    if (mb && !mb[j]) { p[j] = -INFINITY; continue; }
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += Q[(size_t)i * d + f0 + c] * K[(size_t)j * d + f0 + c];
                    p[j] = s * scale;
                    if (p[j] > m) m = p[j];
                }
                float *o = cat + (size_t)i * d + f0;
                for (int c = 0; c < D; c++) o[c] = 0.0f;
                if (m == -INFINITY) continue;   /* sees no key: zeros */
                float l = 0.0f;
                for (int j = 0; j <= last; j++) {
                    if (p[j] == -INFINITY) continue;
                    float e = expf(p[j] - m);
                    l += e;
                    for (int c = 0; c < D; c++) o[c] += e * V[(size_t)j * d + f0 + c];
                }
                for (int c = 0; c < D; c++) o[c] /= l;
            }
        }
        matmul(out + (size_t)b * T * d, cat, wo, T, d);
    }
    free(Q); free(K); free(V); free(cat); free(p);
}
