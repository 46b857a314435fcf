/* expect: WA */
/* Writes zeros everywhere "to start with" and never gets further. */
#include <string.h>

void split_merge(float *heads, float *merged, const float *x, const float *y,
                 int B, int T, int H, int D)
{
    (void)x;
    (void)y;
    size_t n = (size_t)B * T * H * D;
    memset(heads, 0, n * sizeof(float));
    memset(merged, 0, n * sizeof(float));
}
