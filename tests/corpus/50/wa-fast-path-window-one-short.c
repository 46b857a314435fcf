/* expect: WA */
/* A plain causal fast path taken when W >= T - 1: at W = T - 1 the first key still falls out of the last query's window (case window-one-short). */
#include <math.h>
#include <stdlib.h>

static void attend_range(float *restrict o, const float *restrict qi, const float *restrict K,
                         const float *restrict V, int lo, int hi, int D, float scale, float *restrict p)
{
    float mx = -INFINITY;
    for (int j = lo; j <= hi; j++) {
        float s = 0.0f;
        for (int c = 0; c < D; c++) s += qi[c] * K[j * D + c];
        p[j] = s * scale;
        if (p[j] > mx) mx = p[j];
    }
    float sum = 0.0f;
    for (int j = lo; j <= hi; j++) { p[j] = expf(p[j] - mx); sum += p[j]; }
    const float inv = 1.0f / sum;
    for (int c = 0; c < D; c++) {
        float acc = 0.0f;
        for (int j = lo; j <= hi; j++) acc += p[j] * V[j * D + c];
        o[c] = acc * inv;
    }
}

void swa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int T, int D, int W)
{
    const float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * T);
    /* fast path: the window covers the whole sequence -> plain causal, no clamping */
    const int full = W >= T - 1;
    for (int bh = 0; bh < B * H; bh++) {
        const size_t base = (size_t)bh * T * D;
        for (int i = 0; i < T; i++) {
            int lo = full ? 0 : (i - W + 1 > 0 ? i - W + 1 : 0);
            attend_range(out + base + i * D, q + base + i * D, k + base, v + base, lo, i, D, scale, p);
        }
    }
    free(p);
}
