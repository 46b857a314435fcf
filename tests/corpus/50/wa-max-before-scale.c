/* expect: WA max_unscaled */
/* 滑动窗口：先记下原始点积的最大值，取 exp 时才乘 1/sqrt(D)——减去的最大值和取 exp 的值不是同一个尺度。 */
#include <math.h>

void swa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int T, int D, int W)
{
    const float s = 1.0f / sqrtf((float)D);
    float dots[T];
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *qq = q + ((b * H + h) * T) * D;
            const float *kk = k + ((b * H + h) * T) * D;
            const float *vv = v + ((b * H + h) * T) * D;
            float *oo = out + ((b * H + h) * T) * D;
            for (int i = 0; i < T; i++) {
                int lo = i - W + 1 < 0 ? 0 : i - W + 1;
                float big = -INFINITY;
                for (int j = lo; j <= i; j++) {
                    float d = 0.0f;
                    for (int c = 0; c < D; c++) d += qq[i * D + c] * kk[j * D + c];
                    dots[j] = d;
                    if (d > big) big = d;
                }
                float sum = 0.0f;
                for (int c = 0; c < D; c++) oo[i * D + c] = 0.0f;
                for (int j = lo; j <= i; j++) {
                    float e = expf(dots[j] * s - big);
                    sum += e;
                    for (int c = 0; c < D; c++) oo[i * D + c] += e * vv[j * D + c];
                }
                for (int c = 0; c < D; c++) oo[i * D + c] /= sum;
            }
        }
}
