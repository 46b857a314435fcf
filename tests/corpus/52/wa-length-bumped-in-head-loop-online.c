/* expect: WA length_advanced_twice */
/* One pass with a running max; `int pos = len[b]++` sits in the head loop, so head h appends at row len + h. */
#include <math.h>
#include <stddef.h>

void decode_step(float *out, float *k_cache, float *v_cache, int *len,
                 const float *q, const float *k, const float *v,
                 int B, int S_max, int H, int D)
{
    const float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            int pos = len[b]++;
            float *kc = k_cache + (size_t)b * S_max * H * D + h * D;
            float *vc = v_cache + (size_t)b * S_max * H * D + h * D;
            const float *qh = q + ((size_t)b * H + h) * D;
            for (int c = 0; c < D; c++) {
                kc[(size_t)pos * H * D + c] = k[((size_t)b * H + h) * D + c];
                vc[(size_t)pos * H * D + c] = v[((size_t)b * H + h) * D + c];
            }
            float *o = out + ((size_t)b * H + h) * D;
            float m = -INFINITY, l = 0.0f;
            for (int c = 0; c < D; c++) o[c] = 0.0f;
            for (int j = 0; j <= pos; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qh[c] * kc[(size_t)j * H * D + c];
                s *= scale;
                float m2 = fmaxf(m, s), a = expf(m - m2), e = expf(s - m2);
                l = l * a + e;
                for (int c = 0; c < D; c++) o[c] = o[c] * a + e * vc[(size_t)j * H * D + c];
                m = m2;
            }
            for (int c = 0; c < D; c++) o[c] /= l;
        }
}
