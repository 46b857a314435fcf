/* expect: WA softmax_overflow */
/* Accumulates expf(score) and its sum over the window with no running max: overflows on large scores. */
#include <math.h>
#include <stddef.h>

void swa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int T, int D, int W)
{
    const float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++) {
        for (int h = 0; h < H; h++) {
            size_t base = ((size_t)b * H + h) * T * D;
            const float *Q = q + base, *K = k + base, *V = v + base;
            float *O = out + base;
            for (int i = 0; i < T; i++) {
                const float *qi = Q + i * D;
                float *oi = O + i * D;
                float l = 0.0f;
                for (int c = 0; c < D; c++) oi[c] = 0.0f;
                int lo = i - W + 1;
                if (lo < 0) lo = 0;
                for (int j = lo; j <= i; j++) {
                    const float *kj = K + j * D;
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qi[c] * kj[c];
                    s *= scale;
                    float p = expf(s);
                    l += p;
                    for (int c = 0; c < D; c++) oi[c] += p * V[j * D + c];
                }
                for (int c = 0; c < D; c++) oi[c] /= l;
            }
        }
    }
}
