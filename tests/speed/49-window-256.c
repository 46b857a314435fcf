/* A speed case's wrong result is WA (tests/speed.test.mjs): this solution
 * is right on every correctness case (T <= 65) but keeps the scores of at
 * most 256 keys, as a learner's fixed buffer does, so each query past 256
 * forgets its earliest keys: wrong at the speed case's T = 512 only. */
#include <math.h>
#include <string.h>

enum { KEYS = 256 };

/* y[T, d] = x[T, d] . w[d, d], the inner loop along a row of w. */
static void matmul(float *y, const float *x, const float *w, int T, int d)
{
    memset(y, 0, sizeof(float) * (size_t)T * d);
    for (int t = 0; t < T; t++)
        for (int i = 0; i < d; i++) {
            float a = x[t * d + i];
            for (int j = 0; j < d; j++) y[t * d + j] += a * w[i * d + j];
        }
}

static float q[512 * 512], k[512 * 512], v[512 * 512], heads[512 * 512];

void mha(float *out, const float *x, const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    int D = d / n_heads;
    float scale = 1.0f / sqrtf((float)D), p[KEYS];
    for (int b = 0; b < B; b++) {
        const float *xb = x + (size_t)b * T * d;
        const unsigned char *keep = mask ? mask + b * T : NULL;
        matmul(q, xb, wq, T, d);
        matmul(k, xb, wk, T, d);
        matmul(v, xb, wv, T, d);
        memset(heads, 0, sizeof(float) * (size_t)T * d);
        for (int h = 0; h < n_heads; h++)
            for (int i = 0; i < T; i++) {
                int last = causal ? i : T - 1, first = last - KEYS + 1 > 0 ? last - KEYS + 1 : 0;
                float max = -INFINITY, sum = 0.0f;
                for (int j = first; j <= last; j++) {
                    float s = -INFINITY;
                    if (!keep || keep[j]) {
                        s = 0.0f;
                        for (int c = 0; c < D; c++) s += q[i * d + h * D + c] * k[j * d + h * D + c];
                        s *= scale;
                    }
                    p[j - first] = s;
                    if (s > max) max = s;
                }
                if (max == -INFINITY) continue;
                for (int j = first; j <= last; j++) {
                    p[j - first] = p[j - first] == -INFINITY ? 0.0f : expf(p[j - first] - max);
                    sum += p[j - first];
                }
                float *o = heads + i * d + h * D;
                for (int j = first; j <= last; j++)
                    for (int c = 0; c < D; c++) o[c] += p[j - first] / sum * v[j * d + h * D + c];
            }
        matmul(out + (size_t)b * T * d, heads, wo, T, d);
    }
}
