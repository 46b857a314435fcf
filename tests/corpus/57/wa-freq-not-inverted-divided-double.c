/* expect: WA freq_not_inverted */
/* A table of per-pair frequencies in double, built as pos / theta^(-2i/D): dividing where it should multiply, so the frequencies grow with i. */
#include <math.h>
#include <stdlib.h>

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    int half = D / 2;
    double *inv = malloc(sizeof(double) * half);
    for (int i = 0; i < half; i++) inv[i] = pow(theta, -2.0 * i / D);
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++) {
            double pos = offset[b] + t;
            for (int h = 0; h < H; h++) {
                float *v = x + ((long)(b * H + h) * T + t) * D;
                for (int i = 0; i < half; i++) {
                    double a = pos / inv[i];
                    double c = cos(a), s = sin(a), x0 = v[i], x1 = v[i + half];
                    v[i] = (float)(x0 * c - x1 * s);
                    v[i + half] = (float)(x1 * c + x0 * s);
                }
            }
        }
    free(inv);
}
