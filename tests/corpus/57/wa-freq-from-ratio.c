/* expect: WA freq_pair_off_by_one */
/* No pow per pair: the frequency kept as a running product, multiplied by theta^(-2/D) at the top of the loop, so pair 0 already has the first step. */
#include <math.h>

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    const int half = D / 2;
    const double ratio = pow((double)theta, -2.0 / D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++) {
                float *row = x + (((long)b * H + h) * T + t) * D;
                double f = 1.0;
                for (int i = 0; i < half; i++) {
                    f *= ratio;
                    double ang = (double)(offset[b] + t) * f;
                    float c = (float)cos(ang), s = (float)sin(ang), lo = row[i], hi = row[i + half];
                    row[i] = lo * c - hi * s;
                    row[i + half] = hi * c + lo * s;
                }
            }
}
