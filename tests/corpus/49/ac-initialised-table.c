/* expect: AC */
/* Correct, and carries a 5 MB initialised table (a bias per row, left in from an experiment, nonzero only at its far end): so its module is over 4 MB, which the page compiles off its main thread. */
#include <math.h>
#include <stdlib.h>

#define ROWS (5 << 18)
static float row_bias[ROWS] = { [ROWS - 1] = 1.0f };

static void project(const float *x, const float *w, float *y, int n, int d)
{
    for (int t = 0; t < n; t++)
        for (int j = 0; j < d; j++) {
            float s = 0;
            for (int i = 0; i < d; i++) s += x[t * d + i] * w[i * d + j];
            y[t * d + j] = s;
        }
}

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    int D = d / n_heads, n = B * T;
    float *q = malloc(sizeof(float) * n * d), *k = malloc(sizeof(float) * n * d);
    float *v = malloc(sizeof(float) * n * d), *y = malloc(sizeof(float) * n * d);
    float *p = malloc(sizeof(float) * T);
    project(x, wq, q, n, d);
    project(x, wk, k, n, d);
    project(x, wv, v, n, d);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < n_heads; h++)
            for (int i = 0; i < T; i++) {
                const float *qi = q + (b * T + i) * d + h * D;
                float best = -INFINITY, sum = 0;
                int last = causal ? i : T - 1;
                for (int j = 0; j <= last; j++) {
                    p[j] = -INFINITY;
                    if (mask && !mask[b * T + j]) continue;
                    float s = 0;
                    for (int f = 0; f < D; f++) s += qi[f] * k[(b * T + j) * d + h * D + f];
                    p[j] = s / sqrtf((float)D);
                    if (p[j] > best) best = p[j];
                }
                for (int j = 0; j <= last; j++) {
                    p[j] = p[j] == -INFINITY ? 0.0f : expf(p[j] - best);
                    sum += p[j];
                }
                for (int f = 0; f < D; f++) {
                    float a = 0;
                    for (int j = 0; j <= last; j++) a += p[j] * v[(b * T + j) * d + h * D + f];
                    y[(b * T + i) * d + h * D + f] = sum > 0 ? a / sum : 0.0f;
                }
            }
    for (int t = 0; t < n; t++)
        for (int c = 0; c < d; c++) {
            float a = row_bias[t];
            for (int m = 0; m < d; m++) a += y[t * d + m] * wo[m * d + c];
            out[t * d + c] = a;
        }
    free(q); free(k); free(v); free(y); free(p);
}
