/* expect: WA length_advanced_first */
/* len[b] is incremented before the append, so the new k/v row is written at n+1 and attention runs over rows 0..n+1. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void decode_step(float *out, float *k_cache, float *v_cache, int *len,
                 const float *q, const float *k, const float *v,
                 int B, int S_max, int H, int D)
{
    size_t row = (size_t)H * D;
    float scale = 1.0f / sqrtf((float)D);
    float *w = (float *)malloc(sizeof(float) * ((size_t)S_max + 1));
    if (!w) return;

    for (int b = 0; b < B; b++) {
        len[b] += 1;
        int n = len[b];
        float *kc = k_cache + (size_t)b * S_max * row;
        float *vc = v_cache + (size_t)b * S_max * row;

        /* append the new token's key and value at row n */
        for (int h = 0; h < H; h++) {
            for (int c = 0; c < D; c++) {
                kc[(size_t)n * row + (size_t)h * D + c] = k[((size_t)b * H + h) * D + c];
                vc[(size_t)n * row + (size_t)h * D + c] = v[((size_t)b * H + h) * D + c];
            }
        }

        int cnt = n + 1;
        for (int h = 0; h < H; h++) {
            const float *qh = q + ((size_t)b * H + h) * D;
            float mx = -INFINITY;
            for (int j = 0; j < cnt; j++) {
                const float *kr = kc + (size_t)j * row + (size_t)h * D;
                float s = 0.0f;
                for (int c = 0; c < D; c++)
                    s += qh[c] * kr[c];
                s *= scale;
                w[j] = s;
                if (s > mx) mx = s;
            }
            float sum = 0.0f;
            for (int j = 0; j < cnt; j++) {
                w[j] = expf(w[j] - mx);
                sum += w[j];
            }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j < cnt; j++)
                    acc += w[j] * vc[(size_t)j * row + (size_t)h * D + c];
                out[((size_t)b * H + h) * D + c] = acc / sum;
            }
        }
    }
    free(w);
}
