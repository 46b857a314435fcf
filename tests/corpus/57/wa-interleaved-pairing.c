/* expect: WA interleaved_pairing */
/* GPT-J's pairing: neighbours (2i, 2i + 1) turn together, otherwise right. */
#include <math.h>

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++) {
                float *v = x + ((b * H + h) * T + t) * D;
                for (int i = 0; i < D / 2; i++) {
                    float angle = (float)(offset[b] + t) * powf((float)theta, -2.0f * i / D);
                    float a = v[2 * i], w = v[2 * i + 1];
                    v[2 * i] = a * cosf(angle) - w * sinf(angle);
                    v[2 * i + 1] = w * cosf(angle) + a * sinf(angle);
                }
            }
}
