/* expect: WA exp_factor_extra */
/* log2(e) folded into the scale for exp2f, but the softmax still calls expf */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void decode_step(float *out, float *k_cache, float *v_cache, int *len,
                 const float *q, const float *k, const float *v,
                 int B, int S_max, int H, int D)
{
    int row = H * D;   /* one cached position: all heads of one token */
    const float LOG2E = 1.4426950409f;
    float scale = LOG2E / sqrtf((float)D);   /* exp(x) = exp2(x * log2 e) */
    float *p = malloc(sizeof(float) * S_max);
    for (int b = 0; b < B; b++) {
        float *kc = k_cache + (size_t)b * S_max * row, *vc = v_cache + (size_t)b * S_max * row;
        int n = len[b];
        memcpy(kc + n * row, k + b * row, sizeof(float) * row);
        memcpy(vc + n * row, v + b * row, sizeof(float) * row);
        for (int h = 0; h < H; h++) {
            const float *qh = q + b * row + h * D;
            float max = -INFINITY, sum = 0.0f;
            for (int j = 0; j <= n; j++) {   /* n old keys and the new one */
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qh[c] * kc[j * row + h * D + c];
                p[j] = s * scale;
                if (p[j] > max) max = p[j];
            }
            for (int j = 0; j <= n; j++) {
                p[j] = expf(p[j] - max);
                sum += p[j];
            }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j <= n; j++) acc += p[j] * vc[j * row + h * D + c];
                out[b * row + h * D + c] = acc / sum;
            }
        }
        len[b] = n + 1;
    }
    free(p);
}
