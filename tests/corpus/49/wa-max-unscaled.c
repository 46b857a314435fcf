/* expect: WA max_unscaled */
/* Fused per head: the raw dot products kept in a row buffer with their max, the 1/sqrt(D) applied inside expf; the max is not of the scaled scores. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void project(float *y, const float *x, const float *w, int T, int d)
{
    memset(y, 0, sizeof(float) * (size_t)T * d);
    for (int t = 0; t < T; t++)
        for (int i = 0; i < d; i++) {
            const float xi = x[t * d + i];
            for (int j = 0; j < d; j++) y[t * d + j] += xi * w[i * d + j];
        }
}

void mha(float *out, const float *x,
         const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    const int D = d / n_heads;
    const float r = 1.0f / sqrtf((float)D);
    float *Q = malloc(sizeof(float) * 4 * (size_t)T * d), *K = Q + (size_t)T * d, *V = K + (size_t)T * d;
    float *ctx = V + (size_t)T * d, *raw = malloc(sizeof(float) * (size_t)T);
    for (int b = 0; b < B; b++) {
        project(Q, x + (size_t)b * T * d, wq, T, d);
        project(K, x + (size_t)b * T * d, wk, T, d);
        project(V, x + (size_t)b * T * d, wv, T, d);
        for (int h = 0; h < n_heads; h++)
            for (int i = 0; i < T; i++) {
                float top = -INFINITY, tot = 0.0f;
                for (int j = 0; j < T; j++) {
                    int ok = (!causal || j <= i) && (!mask || mask[(size_t)b * T + j]);
                    raw[j] = -INFINITY;
                    if (!ok) continue;
                    float dot = 0.0f;
                    for (int c = 0; c < D; c++) dot += Q[i * d + h * D + c] * K[j * d + h * D + c];
                    raw[j] = dot;
                    top = fmaxf(top, dot);
                }
                float *o = ctx + (size_t)i * d + h * D;
                for (int c = 0; c < D; c++) o[c] = 0.0f;
                if (top == -INFINITY) continue;
                for (int j = 0; j < T; j++) {
                    if (raw[j] == -INFINITY) continue;
                    float e = expf(raw[j] * r - top);
                    tot += e;
                    for (int c = 0; c < D; c++) o[c] += e * V[j * d + h * D + c];
                }
                for (int c = 0; c < D; c++) o[c] /= tot;
            }
        project(out + (size_t)b * T * d, ctx, wo, T, d);
    }
    free(Q);
    free(raw);
}
