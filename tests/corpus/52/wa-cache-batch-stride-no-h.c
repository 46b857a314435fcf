/* expect: WA cache_batch_stride_no_h */
/* the per-sequence cache base is k_cache + b*S_max*D, missing the factor H in the batch stride. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void decode_step(float *out, float *k_cache, float *v_cache, int *len,
                 const float *q, const float *k, const float *v,
                 int B, int S_max, int H, int D)
{
    const size_t tok = (size_t)H * D;
    const float inv = 1.0f / sqrtf((float)D);

    for (int b = 0; b < B; b++) {
        const int n = len[b];
        float *Kb = k_cache + (size_t)b * S_max * D;
        float *Vb = v_cache + (size_t)b * S_max * D;

        memcpy(Kb + (size_t)n * tok, k + (size_t)b * tok, tok * sizeof(float));
        memcpy(Vb + (size_t)n * tok, v + (size_t)b * tok, tok * sizeof(float));

        for (int h = 0; h < H; h++) {
            const float *qh = q + (size_t)b * tok + (size_t)h * D;
            float *o = out + (size_t)b * tok + (size_t)h * D;
            for (int c = 0; c < D; c++) o[c] = 0.0f;

            float m = -INFINITY, l = 0.0f;
            for (int j = 0; j <= n; j++) {
                const float *kr = Kb + (size_t)j * tok + (size_t)h * D;
                const float *vr = Vb + (size_t)j * tok + (size_t)h * D;
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qh[c] * kr[c];
                s *= inv;
                if (s > m) {
                    float a = expf(m - s);
                    l *= a;
                    for (int c = 0; c < D; c++) o[c] *= a;
                    m = s;
                }
                float p = expf(s - m);
                l += p;
                for (int c = 0; c < D; c++) o[c] += p * vr[c];
            }
            for (int c = 0; c < D; c++) o[c] /= l;
        }
        len[b] = n + 1;
    }
}
