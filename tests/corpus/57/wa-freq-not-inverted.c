/* expect: WA freq_not_inverted */
/* Textbook loop in float, but the frequency is written theta^(2i/D): the minus sign of the exponent is lost. */
#include <math.h>
#include <stddef.h>

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    int half = D / 2;
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++) {
                float *row = x + (((size_t)b * H + h) * T + t) * D;
                int pos = offset[b] + t;
                for (int i = 0; i < half; i++) {
                    float freq = powf((float)theta, (float)(2 * i) / (float)D);
                    float ang = pos * freq;
                    float lo = row[i], hi = row[i + half];
                    row[i] = lo * cosf(ang) - hi * sinf(ang);
                    row[i + half] = hi * cosf(ang) + lo * sinf(ang);
                }
            }
}
