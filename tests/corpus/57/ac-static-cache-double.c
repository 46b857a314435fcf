/* expect: AC */
/* A static cos/sin table of one token's pairs (D <= 128, the limit), in double, shared by all its heads; two pointers, to the low and the high half. */
#include <math.h>

static double cos_t[64], sin_t[64];

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    const int half = D / 2;
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++) {
            const long pos = (long)offset[b] + t;
            for (int i = 0; i < half; i++) {
                double inv = 1.0 / pow(theta, (2.0 * i) / D);
                cos_t[i] = cos(pos * inv);
                sin_t[i] = sin(pos * inv);
            }
            for (int h = 0; h < H; h++) {
                float *lo = x + ((long)(b * H + h) * T + t) * D, *hi = lo + half;
                for (int i = 0; i < half; i++) {
                    double u = lo[i], w = hi[i];
                    lo[i] = (float)(u * cos_t[i] - w * sin_t[i]);
                    hi[i] = (float)(w * cos_t[i] + u * sin_t[i]);
                }
            }
        }
}
