/* expect: WA window_start_unsigned */
/* Sizes and indices as size_t throughout; online softmax over the window. */
#include <math.h>
#include <stddef.h>

void swa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int T, int D, int W)
{
    const size_t n = (size_t)T, d = (size_t)D, w = (size_t)W;
    const float sc = 1.0f / sqrtf((float)D);
    for (size_t bh = 0; bh < (size_t)B * (size_t)H; bh++) {
        const float *qb = q + bh * n * d, *kb = k + bh * n * d, *vb = v + bh * n * d;
        float *ob = out + bh * n * d;
        for (size_t i = 0; i < n; i++) {
            float m = -INFINITY, l = 0.0f;
            float *o = ob + i * d;
            for (size_t c = 0; c < d; c++) o[c] = 0.0f;
            for (size_t j = 0; j <= i; j++) {
                if (!(j > i - w)) continue;
                float s = 0.0f;
                for (size_t c = 0; c < d; c++) s += qb[i * d + c] * kb[j * d + c];
                s *= sc;
                float mn = s > m ? s : m, r = expf(m - mn), e = expf(s - mn);
                l = l * r + e;
                for (size_t c = 0; c < d; c++) o[c] = o[c] * r + e * vb[j * d + c];
                m = mn;
            }
            for (size_t c = 0; c < d; c++) o[c] /= l;
        }
    }
}
