/* expect: WA cache_not_written */
/* Attends with the new key taken from k, in double, but never stores k and v in the cache (len is advanced). */
#include <math.h>
#include <string.h>

void decode_step(float *out, float *k_cache, float *v_cache, int *len,
                 const float *q, const float *k, const float *v,
                 int B, int S_max, int H, int D)
{
    const int row = H * D;
    double w[S_max];
    for (int b = 0; b < B; b++) {
        const int n = len[b];
        float *kc = k_cache + (size_t)b * S_max * row;
        float *vc = v_cache + (size_t)b * S_max * row;
        const float *kn = k + b * row, *vn = v + b * row;
        for (int h = 0; h < H; h++) {
            const float *qh = q + b * row + h * D;
            /* keys 0 .. n - 1 come from the cache, key n is the new token's own */
            double best = -HUGE_VAL;
            for (int j = 0; j <= n; j++) {
                const float *key = j < n ? kc + j * row + h * D : kn + h * D;
                double s = 0.0;
                for (int c = 0; c < D; c++) s += (double)qh[c] * key[c];
                w[j] = s / sqrt((double)D);
                if (w[j] > best) best = w[j];
            }
            double z = 0.0;
            for (int j = 0; j <= n; j++) z += (w[j] = exp(w[j] - best));
            for (int c = 0; c < D; c++) {
                double acc = 0.0;
                for (int j = 0; j <= n; j++) {
                    const float *val = j < n ? vc + j * row + h * D : vn + h * D;
                    acc += w[j] * val[c];
                }
                out[b * row + h * D + c] = (float)(acc / z);
            }
        }
        len[b] = n + 1;
    }
}
