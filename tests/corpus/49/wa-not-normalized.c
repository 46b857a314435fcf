/* expect: WA not_normalized */
/* Heads concatenated from unnormalised weights: the sum is computed and never divided by. */
#include <math.h>
#include <stdlib.h>

/* y[T, d] = x[T, d] . w[d, d] */
static void matmul(float *y, const float *x, const float *w, int T, int d)
{
    for (int t = 0; t < T; t++)
        for (int j = 0; j < d; j++) {
            float s = 0.0f;
            for (int i = 0; i < d; i++)
                s += x[t * d + i] * w[i * d + j];
            y[t * d + j] = s;
        }
}

void mha(float *out, const float *x,
         const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    int D = d / n_heads;
    float scale = 1.0f / sqrtf((float)D);
    float *q = malloc(sizeof(float) * T * d), *k = malloc(sizeof(float) * T * d);
    float *v = malloc(sizeof(float) * T * d), *heads = malloc(sizeof(float) * T * d);
    float *p = malloc(sizeof(float) * T);
    for (int b = 0; b < B; b++) {
        const float *xb = x + b * T * d;
        const unsigned char *keep = mask ? mask + b * T : NULL;
        matmul(q, xb, wq, T, d);
        matmul(k, xb, wk, T, d);
        matmul(v, xb, wv, T, d);
        for (int h = 0; h < n_heads; h++)
            for (int i = 0; i < T; i++) {
                /* Scores of query i against the keys it may see. */
                float max = -INFINITY;
                for (int j = 0; j < T; j++) {
                    p[j] = -INFINITY;
                    if ((causal && j > i) || (keep && !keep[j])) continue;
                    float s = 0.0f;
                    for (int c = 0; c < D; c++)
                        s += q[i * d + h * D + c] * k[j * d + h * D + c];
                    p[j] = s * scale;
                    if (p[j] > max) max = p[j];
                }
                float sum = 0.0f;
                for (int j = 0; j < T; j++) {
                    p[j] = p[j] == -INFINITY ? 0.0f : expf(p[j] - max);
                    sum += p[j];
                }
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j < T; j++)
                        acc += p[j] * v[j * d + h * D + c];
                    /* A query that sees no key has sum 0: it outputs zeros. */
                    heads[i * d + h * D + c] = acc;
                }
            }
        matmul(out + b * T * d, heads, wo, T, d);
    }
    free(q);
    free(k);
    free(v);
    free(heads);
    free(p);
}
