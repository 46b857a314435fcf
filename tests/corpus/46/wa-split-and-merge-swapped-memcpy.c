/* expect: WA merge_as_split+split_as_merge */
/* Copies rows of D floats with memcpy, but each copy has its source and
 * destination offsets the wrong way round: the split is done as a merge and
 * the merge as a split, the inverse permutation both times. */
#include <string.h>

static size_t head_row(int b, int h, int t, int H, int T) { return ((size_t)b * H + h) * T + t; }
static size_t token_row(int b, int t, int h, int T, int H) { return ((size_t)b * T + t) * H + h; }

void split_merge(float *heads, float *merged, const float *x, const float *y,
                 int B, int T, int H, int D)
{
    size_t bytes = sizeof(float) * (size_t)D;
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++)
            for (int h = 0; h < H; h++) {
                size_t hr = head_row(b, h, t, H, T) * (size_t)D, tr = token_row(b, t, h, T, H) * (size_t)D;
                memcpy(heads + tr, x + hr, bytes);
                memcpy(merged + hr, y + tr, bytes);
            }
}
