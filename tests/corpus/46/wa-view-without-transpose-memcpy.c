/* expect: WA view_without_transpose */
/* "A view is free": copies both buffers byte for byte with memcpy, as if
 * [B, T, d] and [B, H, T, D] shared one layout. */
#include <string.h>

void split_merge(float *heads, float *merged, const float *x, const float *y,
                 int B, int T, int H, int D)
{
    size_t bytes = sizeof(float) * (size_t)B * T * H * D;
    memcpy(heads, x, bytes);
    memcpy(merged, y, bytes);
}
