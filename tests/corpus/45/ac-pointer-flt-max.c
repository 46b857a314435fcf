/* expect: AC */
/* Pointer walking, a -FLT_MAX sentinel for the max and a counter of finite
 * entries: a row with none of them is written as zeros. */
#include <float.h>
#include <math.h>

void softmax(float *out, const float *x, int rows, int n)
{
    const float *src = x;
    float *dst = out;
    for (int r = 0; r < rows; r++, src += n, dst += n) {
        float m = -FLT_MAX;
        int seen = 0;
        for (const float *p = src; p < src + n; p++)
            if (*p != -INFINITY) {
                seen++;
                if (*p > m) m = *p;
            }
        if (!seen) {
            for (float *o = dst; o < dst + n; o++) *o = 0.0f;
            continue;
        }
        float s = 0.0f;
        for (int j = 0; j < n; j++) s += dst[j] = expf(src[j] - m);
        for (int j = 0; j < n; j++) dst[j] = dst[j] / s;
    }
}
