/* expect: WA cache_not_written */
/* The append was forgotten, but the loop still runs to j <= n: row n of the cache is whatever was there before. */
#include <math.h>
#include <stdlib.h>

void decode_step(float *out, float *k_cache, float *v_cache, int *len,
                 const float *q, const float *k, const float *v,
                 int B, int S_max, int H, int D)
{
    (void)k, (void)v;
    float *w = malloc(sizeof(float) * S_max);
    for (int b = 0; b < B; b++) {
        int n = len[b];
        for (int h = 0; h < H; h++) {
            const float *qh = &q[(b * H + h) * D];
            float m = -INFINITY;
            for (int j = 0; j <= n; j++) {
                const float *kj = &k_cache[((size_t)(b * S_max + j) * H + h) * D];
                float dot = 0;
                for (int c = 0; c < D; c++) dot += qh[c] * kj[c];
                w[j] = dot / sqrtf(D);
                m = fmaxf(m, w[j]);
            }
            float z = 0;
            for (int j = 0; j <= n; j++) z += (w[j] = expf(w[j] - m));
            for (int c = 0; c < D; c++) {
                float o = 0;
                for (int j = 0; j <= n; j++) o += w[j] * v_cache[((size_t)(b * S_max + j) * H + h) * D + c];
                out[(b * H + h) * D + c] = o / z;
            }
        }
        len[b]++;
    }
    free(w);
}
