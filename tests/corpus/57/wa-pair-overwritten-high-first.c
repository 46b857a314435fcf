/* expect: WA pair_overwritten_in_place */
/* In place, x[i + D/2] written first and x[i] then computed from the new value. */
#include <math.h>
#include <stddef.h>

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    int half = D / 2;
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++) {
                float *v = x + (((size_t)b * H + h) * T + t) * D;
                float pos = (float)(offset[b] + t);
                for (int i = 0; i < half; i++) {
                    float angle = pos * powf((float)theta, -2.0f * i / D);
                    float c = cosf(angle), s = sinf(angle);
                    float a = v[i], w = v[i + half];   /* the old pair, before either is written */
                    v[i + half] = w * c + v[i] * s;
                    v[i] = a * c - v[i + half] * s;
                }
            }
}
