/* expect: WA view_without_transpose */
/* Treats the split as a pure view: [B, T, d] reinterpreted as [B, H, T, D]. */
#include <string.h>

void split_merge(float *heads, float *merged, const float *x, const float *y,
                 int B, int T, int H, int D)
{
    memcpy(heads, x, sizeof(float) * B * T * H * D);
    memcpy(merged, y, sizeof(float) * B * T * H * D);
}
