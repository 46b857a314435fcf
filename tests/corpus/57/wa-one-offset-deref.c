/* expect: WA one_offset_for_batch */
/* *offset instead of offset[b], in a helper that turns one vector, double angles. */
#include <math.h>

static void turn(float *v, int D, double pos, double theta)
{
    for (int i = 0; i < D / 2; i++) {
        double a = pos / pow(theta, 2.0 * i / D), lo = v[i], hi = v[i + D / 2];
        v[i] = (float)(lo * cos(a) - hi * sin(a));
        v[i + D / 2] = (float)(hi * cos(a) + lo * sin(a));
    }
}

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++)
                turn(x + ((b * H + h) * T + t) * D, D, *offset + t, theta);
}
