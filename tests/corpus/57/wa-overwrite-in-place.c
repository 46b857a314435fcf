/* expect: WA pair_overwritten_in_place */
/* Writes x[i] first, then computes x[i + D/2] from the x[i] it just wrote. */
#include <math.h>

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    int half = D / 2;
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++) {
                float *v = x + ((b * H + h) * T + t) * D;
                for (int i = 0; i < half; i++) {
                    float angle = (float)(offset[b] + t) * powf((float)theta, -2.0f * i / D);
                    float c = cosf(angle), s = sinf(angle);
                    v[i] = v[i] * c - v[i + half] * s;
                    v[i + half] = v[i + half] * c + v[i] * s;
                }
            }
}
