/* expect: WA scaled_by_sqrt_n */
/* Two passes in double, with the 1/sqrt(n) "temperature" carried over from scaled dot-product attention. */
#include <math.h>
#include <stddef.h>

void softmax(float *out, const float *x, int rows, int n)
{
    double t = sqrt((double)n);
    for (int r = 0; r < rows; r++) {
        const float *in = &x[(size_t)r * n];
        float *o = &out[(size_t)r * n];
        double big = -INFINITY, z = 0.0;
        for (int j = 0; j < n; j++)
            if (in[j] / t > big) big = in[j] / t;
        if (isinf(big) && big < 0) {
            for (int j = 0; j < n; j++) o[j] = 0.0f;
            continue;
        }
        for (int j = 0; j < n; j++) z += exp(in[j] / t - big);
        for (int j = 0; j < n; j++) o[j] = (float)(exp(in[j] / t - big) / z);
    }
}
