/* expect: WA theta_hardcoded */
/* A ROPE_BASE macro of 1e4 used for the frequencies, exp/log form, double. */
#include <math.h>
#define ROPE_BASE 1e4

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    (void)theta;
    int half = D / 2;
    for (long n = 0; n < (long)B * H * T; n++) {
        float *v = x + n * D;
        int b = (int)(n / ((long)H * T)), t = (int)(n % T);
        for (int i = 0; i < half; i++) {
            double a = (offset[b] + t) * exp(-log(ROPE_BASE) * 2.0 * i / D);
            double lo = v[i], hi = v[i + half];
            v[i] = (float)(lo * cos(a) - hi * sin(a));
            v[i + half] = (float)(hi * cos(a) + lo * sin(a));
        }
    }
}
