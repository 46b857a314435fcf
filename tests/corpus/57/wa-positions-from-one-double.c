/* expect: WA position_off_by_one */
/* Angles in double, the pair loop outermost inside each token; positions counted from 1 (offset[b] + t + 1). */
#include <math.h>
#include <stddef.h>

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    size_t half = (size_t)D / 2;
    for (int b = 0; b < B; b++) {
        for (int t = 0; t < T; t++) {
            double pos = offset[b] + t + 1;
            for (size_t i = 0; i < half; i++) {
                double a = pos * pow((double)theta, -2.0 * (double)i / D);
                double c = cos(a), s = sin(a);
                for (int h = 0; h < H; h++) {
                    float *v = x + (((size_t)b * H + h) * T + t) * D;
                    double p = v[i], q = v[i + half];
                    v[i] = (float)(p * c - q * s);
                    v[i + half] = (float)(q * c + p * s);
                }
            }
        }
    }
}
