/* expect: WA head_rows_dim_major */
/* the per-head index helper uses t*1 + c*T (column-major inside each head) instead of t*D + c. */
#include <stddef.h>

static size_t head_off(int b, int h, int t, int c, int H, int T, int D)
{
    size_t base = ((size_t)b * H + h) * (size_t)T * D;
    return base + (size_t)c * T + t;
}

void split_merge(float *heads, float *merged, const float *x, const float *y,
                 int B, int T, int H, int D)
{
    size_t d = (size_t)H * D;
    for (int b = 0; b < B; ++b) {
        for (int t = 0; t < T; ++t) {
            const float *xr = x + ((size_t)b * T + t) * d;
            float *mr = merged + ((size_t)b * T + t) * d;
            for (int h = 0; h < H; ++h) {
                for (int c = 0; c < D; ++c) {
                    heads[head_off(b, h, t, c, H, T, D)] = xr[(size_t)h * D + c];
                    mr[(size_t)h * D + c] = y[head_off(b, h, t, c, H, T, D)];
                }
            }
        }
    }
}
