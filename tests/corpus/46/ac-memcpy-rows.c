/* expect: AC */
/* Copies whole head rows of D floats with memcpy, walking the merged layout. */
#include <string.h>

void split_merge(float *heads, float *merged, const float *x, const float *y,
                 int B, int T, int H, int D)
{
    size_t row = (size_t)D * sizeof(float);
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++)
            for (int h = 0; h < H; h++) {
                const float *src = x + ((size_t)(b * T + t) * H + h) * D;
                float *dst = heads + ((size_t)(b * H + h) * T + t) * D;
                memcpy(dst, src, row);
                memcpy(merged + (src - x), y + (dst - heads), row);
            }
}
