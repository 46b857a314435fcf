/* A speed run past its budget is "too slow", and the verdict stays AC
 * (tests/speed.test.mjs): this solution is right on every correctness case
 * (T <= 65) and never returns at the speed case's T = 512, as a learner's
 * loop with a wrong bound might. */
#include <math.h>
#include <stdlib.h>

/* y[T, d] = x[T, d] . w[d, d] */
static void matmul(float *y, const float *x, const float *w, int T, int d)
{
    for (int t = 0; t < T; t++)
        for (int j = 0; j < d; j++) {
            float s = 0.0f;
            for (int i = 0; i < d; i++) s += x[t * d + i] * w[i * d + j];
            y[t * d + j] = s;
        }
}

void mha(float *out, const float *x,
         const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    for (volatile int spin = T > 256; spin;) {
    }
    int D = d / n_heads;
    float scale = 1.0f / sqrtf((float)D);
    float *q = malloc(sizeof(float) * T * d), *k = malloc(sizeof(float) * T * d);
    float *v = malloc(sizeof(float) * T * d), *heads = malloc(sizeof(float) * T * d);
    float *p = malloc(sizeof(float) * T);
    for (int b = 0; b < B; b++) {
        const unsigned char *keep = mask ? mask + b * T : NULL;
        matmul(q, x + b * T * d, wq, T, d);
        matmul(k, x + b * T * d, wk, T, d);
        matmul(v, x + b * T * d, wv, T, d);
        for (int h = 0; h < n_heads; h++)
            for (int i = 0; i < T; i++) {
                float max = -INFINITY, sum = 0.0f;
                for (int j = 0; j < T; j++) {
                    p[j] = -INFINITY;
                    if ((causal && j > i) || (keep && !keep[j])) continue;
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += q[i * d + h * D + c] * k[j * d + h * D + c];
                    p[j] = s * scale;
                    if (p[j] > max) max = p[j];
                }
                for (int j = 0; j < T; j++) {
                    p[j] = p[j] == -INFINITY ? 0.0f : expf(p[j] - max);
                    sum += p[j];
                }
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j < T; j++) acc += p[j] * v[j * d + h * D + c];
                    heads[i * d + h * D + c] = sum > 0.0f ? acc / sum : 0.0f;
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
