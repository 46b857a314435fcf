/* expect: WA cache_not_written */
/* Computes the output from the old cache rows plus k and v themselves, without ever storing k and v in the cache. */
#include <math.h>
#include <stdlib.h>

void decode_step(float *out, float *k_cache, float *v_cache, int *len,
                 const float *q, const float *k, const float *v,
                 int B, int S_max, int H, int D)
{
    float *p = malloc(sizeof(float) * (S_max + 1));
    for (int b = 0; b < B; b++) {
        int n = len[b];
        for (int h = 0; h < H; h++) {
            const float *qh = q + (b * H + h) * D;
            float max = -INFINITY, sum = 0.0f;
            for (int j = 0; j <= n; j++) {
                const float *kj = j < n ? k_cache + ((b * S_max + j) * H + h) * D : k + (b * H + h) * D;
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qh[c] * kj[c];
                p[j] = s / sqrtf((float)D);
                if (p[j] > max) max = p[j];
            }
            for (int j = 0; j <= n; j++) { p[j] = expf(p[j] - max); sum += p[j]; }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j <= n; j++) {
                    const float *vj = j < n ? v_cache + ((b * S_max + j) * H + h) * D : v + (b * H + h) * D;
                    acc += p[j] * vj[c];
                }
                out[(b * H + h) * D + c] = acc / sum;
            }
        }
        len[b] = n + 1;
    }
    free(p);
}
