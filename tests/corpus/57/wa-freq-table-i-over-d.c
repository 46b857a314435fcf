/* expect: WA freq_exponent_over_d */
/* An inv_freq table with step 1 in the exponent (arange(0, D/2) / D), in double, malloc'd. */
#include <math.h>
#include <stdlib.h>

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    int half = D / 2;
    double *inv = malloc(sizeof(double) * half);
    for (int i = 0; i < half; i++) inv[i] = pow((double)theta, -(double)i / (double)D);
    for (long n = 0; n < (long)B * H * T; n++) {
        float *v = x + n * D;
        double pos = offset[n / (H * T)] + n % T;
        for (int i = 0; i < half; i++) {
            double c = cos(pos * inv[i]), s = sin(pos * inv[i]), a = v[i], w = v[i + half];
            v[i] = (float)(a * c - w * s);
            v[i + half] = (float)(w * c + a * s);
        }
    }
    free(inv);
}
