/* expect: WA head_rows_dim_major */
/* heads and y are indexed as [B, H, D, T] (time and channel swapped inside a head) instead of [B, H, T, D]. */
#include <string.h>

void split_merge(float *heads, float *merged, const float *x, const float *y,
                 int B, int T, int H, int D)
{
    int d = H * D;
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int c = 0; c < D; c++)
                for (int t = 0; t < T; t++) {
                    heads[((b * H + h) * D + c) * T + t] = x[(b * T + t) * d + h * D + c];
                    merged[(b * T + t) * d + h * D + c] = y[((b * H + h) * D + c) * T + t];
                }
}
