/* expect: WA */
/* Writes zeros over x. */
#include <string.h>

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    (void)offset, (void)theta;
    memset(x, 0, sizeof(float) * (size_t)B * H * T * D);
}
