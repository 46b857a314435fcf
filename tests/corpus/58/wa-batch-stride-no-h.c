/* expect: WA cache_batch_stride_no_h */
/* Sequence b's cache taken to start at b * S_max * D (H left out of the
 * batch stride), so the sequences overlap; two passes over the scores,
 * inverse frequencies from a table. */
#include <math.h>
#include <stdlib.h>

#define MAXD 256

void rope_decode_step(float *out, float *k_cache, float *v_cache, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D, int theta)
{
    float inv_freq[MAXD / 2], qr[MAXD];
    for (int i = 0; i < D / 2; i++) inv_freq[i] = 1.0f / powf((float)theta, (float)(2 * i) / (float)D);
    float *w = malloc(sizeof(float) * S_max);
    for (int b = 0; b < B; b++) {
        int t = len[b];
        float *K = k_cache + (size_t)b * S_max * D;   /* one sequence */
        float *V = v_cache + (size_t)b * S_max * D;
        for (int h = 0; h < H; h++) {
            const float *kn = k + ((size_t)b * H + h) * D, *vn = v + ((size_t)b * H + h) * D;
            const float *qn = q + ((size_t)b * H + h) * D;
            float *krow = K + ((size_t)t * H + h) * D, *vrow = V + ((size_t)t * H + h) * D;
            for (int i = 0; i < D / 2; i++) {
                float c = cosf(t * inv_freq[i]), s = sinf(t * inv_freq[i]);
                krow[i] = kn[i] * c - kn[i + D / 2] * s;
                krow[i + D / 2] = kn[i + D / 2] * c + kn[i] * s;
                qr[i] = qn[i] * c - qn[i + D / 2] * s;
                qr[i + D / 2] = qn[i + D / 2] * c + qn[i] * s;
            }
            for (int c = 0; c < D; c++) vrow[c] = vn[c];
        }
        for (int h = 0; h < H; h++) {
            const float *qn = q + ((size_t)b * H + h) * D;
            for (int i = 0; i < D / 2; i++) {
                float c = cosf(t * inv_freq[i]), s = sinf(t * inv_freq[i]);
                qr[i] = qn[i] * c - qn[i + D / 2] * s;
                qr[i + D / 2] = qn[i + D / 2] * c + qn[i] * s;
            }
            float mx = -INFINITY, sum = 0.0f;
            for (int j = 0; j <= t; j++) {
                const float *kj = K + ((size_t)j * H + h) * D;
                float dot = 0.0f;
                for (int c = 0; c < D; c++) dot += qr[c] * kj[c];
                w[j] = dot / sqrtf((float)D);
                mx = fmaxf(mx, w[j]);
            }
            for (int j = 0; j <= t; j++) sum += (w[j] = expf(w[j] - mx));
            float *o = out + ((size_t)b * H + h) * D;
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j <= t; j++) acc += w[j] * V[((size_t)j * H + h) * D + c];
                o[c] = acc / sum;
            }
        }
        len[b] = t + 1;
    }
    free(w);
}
