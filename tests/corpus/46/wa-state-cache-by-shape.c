/* expect: WA state_kept_between_calls */
/* Memoises by shape: a call with the same B, T, H, D as the previous one gets
 * the previous call's outputs back from two static buffers. */
#include <stdlib.h>
#include <string.h>

static float *last_heads, *last_merged;
static int last_shape[4] = { -1, -1, -1, -1 };

void split_merge(float *heads, float *merged, const float *x, const float *y,
                 int B, int T, int H, int D)
{
    size_t bytes = sizeof(float) * (size_t)B * T * H * D;
    int shape[4] = { B, T, H, D };
    if (last_heads && memcmp(shape, last_shape, sizeof shape) == 0) {
        memcpy(heads, last_heads, bytes);
        memcpy(merged, last_merged, bytes);
        return;
    }
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++)
                for (int c = 0; c < D; c++) {
                    int split = ((b * H + h) * T + t) * D + c;
                    int whole = ((b * T + t) * H + h) * D + c;
                    heads[split] = x[whole];
                    merged[whole] = y[split];
                }
    free(last_heads);
    free(last_merged);
    last_heads = malloc(bytes);
    last_merged = malloc(bytes);
    memcpy(last_heads, heads, bytes);
    memcpy(last_merged, merged, bytes);
    memcpy(last_shape, shape, sizeof shape);
}
