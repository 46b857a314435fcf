/* expect: WA freq_exponent_over_d */
/* The exponent forgets the 2: theta^(-i/D). */
#include <math.h>

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    int half = D / 2;
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++) {
                float *v = x + ((b * H + h) * T + t) * D;
                for (int i = 0; i < half; i++) {
                    float angle = (float)(offset[b] + t) / powf((float)theta, (float)i / D);
                    float c = cosf(angle), s = sinf(angle), a = v[i], w = v[i + half];
                    v[i] = a * c - w * s;
                    v[i + half] = w * c + a * s;
                }
            }
}
