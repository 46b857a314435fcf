/* expect: WA stale_scores */
/* Scores kept in one array per head, filled with -INFINITY when the head
 * starts; each query writes the keys inside its window. */
#include <math.h>
#include <stdlib.h>

static float dot(const float *a, const float *b, int n)
{
    float s = 0.0f;
    for (int c = 0; c < n; c++) s += a[c] * b[c];
    return s;
}

void swa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int T, int D, int W)
{
    float sc[T];
    float r = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            size_t base = ((size_t)b * H + h) * T * D;
            for (int j = 0; j < T; j++) sc[j] = -INFINITY;
            for (int t = 0; t < T; t++) {
                for (int j = 0; j <= t; j++) {
                    if (t - j >= W) continue;   /* outside the window */
                    sc[j] = r * dot(q + base + (size_t)t * D, k + base + (size_t)j * D, D);
                }
                float hi = -INFINITY, z = 0.0f;
                for (int j = 0; j <= t; j++) hi = sc[j] > hi ? sc[j] : hi;
                float *o = out + base + (size_t)t * D;
                for (int c = 0; c < D; c++) o[c] = 0.0f;
                for (int j = 0; j <= t; j++) {
                    float e = expf(sc[j] - hi);   /* exp(-inf) = 0 */
                    z += e;
                    for (int c = 0; c < D; c++) o[c] += e * v[base + (size_t)j * D + c];
                }
                for (int c = 0; c < D; c++) o[c] /= z;
            }
        }
}
