/* expect: WA position_off_by_one */
/* Positions counted from 1: token t turned to offset[b] + t + 1. */
#include <math.h>

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    int half = D / 2;
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 1; t <= T; t++) {
                float *v = x + ((b * H + h) * T + t - 1) * D;
                for (int i = 0; i < half; i++) {
                    float angle = (float)(offset[b] + t) * powf((float)theta, -2.0f * i / D);
                    float a = v[i], w = v[i + half];
                    v[i] = a * cosf(angle) - w * sinf(angle);
                    v[i + half] = w * cosf(angle) + a * sinf(angle);
                }
            }
}
