/* expect: WA max_starts_at_zero */
/* Merges the sorted globals before the window with the window into a malloc'd key list, then one online softmax; the running max m starts at 0 (fmaxf against 0) instead of -INFINITY. */
#include <math.h>
#include <stdlib.h>

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    int *keys = malloc(sizeof(int) * T);
    float *o = malloc(sizeof(float) * D);
    const float sc = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < T; i++) {
            int is_global = 0;
            for (int g = 0; g < G && global_idx[g] <= i; g++)
                if (global_idx[g] == i) is_global = 1;
            int lo = is_global ? 0 : (i - W + 1 > 0 ? i - W + 1 : 0), n = 0;
            for (int g = 0; g < G && global_idx[g] < lo; g++) keys[n++] = global_idx[g];
            for (int j = lo; j <= i; j++) keys[n++] = j;

            const float *qi = q + ((size_t)bh * T + i) * D;
            float m = 0, l = 0;
            for (int c = 0; c < D; c++) o[c] = 0;
            for (int t = 0; t < n; t++) {
                const float *kj = k + ((size_t)bh * T + keys[t]) * D;
                const float *vj = v + ((size_t)bh * T + keys[t]) * D;
                float s = 0;
                for (int c = 0; c < D; c++) s += qi[c] * kj[c];
                s *= sc;
                float mn = fmaxf(m, s), f = expf(m - mn), p = expf(s - mn);
                l = f * l + p;
                for (int c = 0; c < D; c++) o[c] = f * o[c] + p * vj[c];
                m = mn;
            }
            for (int c = 0; c < D; c++) out[((size_t)bh * T + i) * D + c] = o[c] / l;
        }
    free(keys);
    free(o);
}
