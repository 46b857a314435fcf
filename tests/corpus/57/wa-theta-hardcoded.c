/* expect: WA theta_hardcoded */
/* 10000.0f written in, as in Llama 2's config; the theta argument unused. */
#include <math.h>

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    (void)theta;
    int half = D / 2;
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++) {
                float *v = x + ((b * H + h) * T + t) * D;
                for (int i = 0; i < half; i++) {
                    float angle = (float)(offset[b] + t) * powf(10000.0f, -2.0f * i / D);
                    float a = v[i], w = v[i + half];
                    v[i] = a * cosf(angle) - w * sinf(angle);
                    v[i + half] = w * cosf(angle) + a * sinf(angle);
                }
            }
}
