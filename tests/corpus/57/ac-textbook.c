/* expect: AC */
/* Textbook: one index expression per element, angle in float with powf, the old pair kept in locals. */
#include <math.h>

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++)
                for (int i = 0; i < D / 2; i++) {
                    int base = ((b * H + h) * T + t) * D;
                    float freq = powf((float)theta, -(float)(2 * i) / (float)D);
                    float angle = (float)(offset[b] + t) * freq;
                    float x1 = x[base + i], x2 = x[base + i + D / 2];
                    x[base + i] = x1 * cosf(angle) - x2 * sinf(angle);
                    x[base + i + D / 2] = x2 * cosf(angle) + x1 * sinf(angle);
                }
}
