/* expect: WA sum_not_reset */
/* softmax sum not reset per head -- `double z = 0.0;` zeroed once per sequence b, above the head loop; double accumulation, memcpy append, VLA score buffer, pointer arithmetic on cache rows */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void decode_step(float *out, float *k_cache, float *v_cache, int *len,
                 const float *q, const float *k, const float *v,
                 int B, int S_max, int H, int D)
{
    const int stride = H * D;
    const double inv = 1.0 / sqrt((double)D);
    for (int b = 0; b < B; b++) {
        float *K = k_cache + (size_t)b * S_max * stride;
        float *V = v_cache + (size_t)b * S_max * stride;
        const int n = len[b];
        memcpy(K + (size_t)n * stride, k + (size_t)b * stride, sizeof(float) * stride);
        memcpy(V + (size_t)n * stride, v + (size_t)b * stride, sizeof(float) * stride);
        const int cnt = n + 1;
        double w[cnt];
        double z = 0.0;
        for (int h = 0; h < H; h++) {
            const float *qh = q + (size_t)b * stride + h * D;
            double top = -INFINITY;
            const float *row = K + h * D;
            for (int t = 0; t < cnt; t++, row += stride) {
                double s = 0.0;
                for (int c = 0; c < D; c++) s += (double)qh[c] * row[c];
                w[t] = s * inv;
                if (w[t] > top) top = w[t];
            }
            for (int t = 0; t < cnt; t++) {
                w[t] = exp(w[t] - top);
                z += w[t];
            }
            float *oh = out + (size_t)b * stride + h * D;
            for (int c = 0; c < D; c++) {
                double acc = 0.0;
                const float *vr = V + h * D + c;
                for (int t = 0; t < cnt; t++, vr += stride) acc += w[t] * *vr;
                oh[c] = (float)(acc / z);
            }
        }
        len[b] = cnt;
    }
}
