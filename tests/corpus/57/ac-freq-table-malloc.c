/* expect: AC */
/* The inverse frequencies computed once into a malloc'd table, as HF's inv_freq; pointer walking over the head vectors. */
#include <math.h>
#include <stdlib.h>

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    int half = D / 2;
    float *inv_freq = malloc(sizeof(float) * half);
    if (!inv_freq) return;
    for (int i = 0; i < half; i++)
        inv_freq[i] = 1.0f / powf((float)theta, (float)(2 * i) / D);
    float *v = x;
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++, v += D) {
                float pos = (float)(offset[b] + t);
                for (int i = 0; i < half; i++) {
                    float c = cosf(pos * inv_freq[i]), s = sinf(pos * inv_freq[i]);
                    float lo = v[i], hi = v[half + i];
                    v[i] = lo * c - hi * s;
                    v[half + i] = hi * c + lo * s;
                }
            }
    free(inv_freq);
}
