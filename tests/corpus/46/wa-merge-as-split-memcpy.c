/* expect: WA merge_as_split */
/* Row copies with memcpy; the merge reuses the split's source and destination
 * offsets, so y is split a second time instead of merged. */
#include <string.h>

void split_merge(float *heads, float *merged, const float *x, const float *y,
                 int B, int T, int H, int D)
{
    size_t row = sizeof(float) * D;
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++)
            for (int h = 0; h < H; h++) {
                size_t whole = ((size_t)(b * T + t) * H + h) * D;
                size_t split = ((size_t)(b * H + h) * T + t) * D;
                memcpy(heads + split, x + whole, row);
                memcpy(merged + split, y + whole, row);
            }
}
