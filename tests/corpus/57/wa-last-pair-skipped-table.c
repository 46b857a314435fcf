/* expect: WA last_pair_unrotated */
/* Builds a table of inverse frequencies first, then turns the pairs; the turning loop stops at D/2 - 1. */
#include <math.h>
#include <stdlib.h>

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    int half = D / 2;
    float *inv = malloc(sizeof(float) * half);
    for (int i = 0; i < half; i++) inv[i] = 1.0f / powf((float)theta, 2.0f * i / D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++) {
                float *v = x + (((size_t)b * H + h) * T + t) * D;
                float pos = (float)(offset[b] + t);
                for (int i = 0; i < half - 1; i++) {
                    float c = cosf(pos * inv[i]), s = sinf(pos * inv[i]);
                    float a = v[i], bb = v[i + half];
                    v[i] = a * c - bb * s;
                    v[i + half] = bb * c + a * s;
                }
            }
    free(inv);
}
