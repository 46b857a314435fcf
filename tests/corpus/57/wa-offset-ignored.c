/* expect: WA offset_ignored */
/* Positions count from 0 in every sequence: the offset is never read. */
#include <math.h>

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    (void)offset;
    int half = D / 2;
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++)
                for (int i = 0; i < half; i++) {
                    float *v = x + ((b * H + h) * T + t) * D;
                    float angle = (float)t * powf((float)theta, -2.0f * i / D);
                    float a = v[i], w = v[i + half];
                    v[i] = a * cosf(angle) - w * sinf(angle);
                    v[i + half] = w * cosf(angle) + a * sinf(angle);
                }
}
