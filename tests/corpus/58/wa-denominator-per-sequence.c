/* expect: WA sum_not_reset */
/* The softmax denominator `denom` is zeroed once per sequence, above the
 * head loop, so head 1 onwards divides by its own sum plus the earlier heads'. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

void rope_decode_step(float *out, float *k_cache, float *v_cache, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D, int theta)
{
    const int half = D / 2;
    const size_t stride = (size_t)H * D;
    float *cosv = malloc(sizeof(float) * (half ? half : 1));
    float *sinv = malloc(sizeof(float) * (half ? half : 1));
    float *qrot = malloc(sizeof(float) * D);
    float *e = malloc(sizeof(float) * S_max);

    for (int b = 0; b < B; b++) {
        const int n = len[b];
        /* cos/sin table for position n, shared by every head */
        for (int i = 0; i < half; i++) {
            float ang = (float)n * powf((float)theta, -2.0f * (float)i / (float)D);
            cosv[i] = cosf(ang);
            sinv[i] = sinf(ang);
        }

        float *krow = k_cache + ((size_t)b * S_max + n) * stride;
        float *vrow = v_cache + ((size_t)b * S_max + n) * stride;
        const float *kin = k + (size_t)b * stride, *vin = v + (size_t)b * stride;
        for (size_t x = 0; x < stride; x++) vrow[x] = vin[x];
        for (int h = 0; h < H; h++) {
            const float *src = kin + h * D;
            float *dst = krow + h * D;
            for (int i = 0; i < half; i++) {
                dst[i]        = src[i] * cosv[i] - src[i + half] * sinv[i];
                dst[i + half] = src[i + half] * cosv[i] + src[i] * sinv[i];
            }
        }

        const float *kbase = k_cache + (size_t)b * S_max * stride;
        const float *vbase = v_cache + (size_t)b * S_max * stride;
        float denom = 0.0f;
        for (int h = 0; h < H; h++) {
            const float *qin = q + (size_t)b * stride + h * D;
            for (int i = 0; i < half; i++) {
                qrot[i]        = qin[i] * cosv[i] - qin[i + half] * sinv[i];
                qrot[i + half] = qin[i + half] * cosv[i] + qin[i] * sinv[i];
            }

            float best = -INFINITY;
            for (int j = 0; j <= n; j++) {
                const float *kj = kbase + j * stride + h * D;
                float dot = 0.0f;
                for (int c = 0; c < D; c++) dot += qrot[c] * kj[c];
                e[j] = dot / sqrtf((float)D);
                if (e[j] > best) best = e[j];
            }
            for (int j = 0; j <= n; j++) {
                e[j] = expf(e[j] - best);
                denom += e[j];
            }

            float *o = out + (size_t)b * stride + h * D;
            for (int c = 0; c < D; c++) {
                float num = 0.0f;
                for (int j = 0; j <= n; j++) num += e[j] * vbase[j * stride + h * D + c];
                o[c] = num / denom;
            }
        }
        len[b] = n + 1;
    }
    free(cosv);
    free(sinv);
    free(qrot);
    free(e);
}
