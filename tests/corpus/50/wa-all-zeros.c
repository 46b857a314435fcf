/* expect: WA */
/* Writes zeros everywhere, a placeholder submitted before the attention was written. */
#include <string.h>

void swa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int T, int D, int W)
{
    (void)q, (void)k, (void)v, (void)W;
    memset(out, 0, sizeof(float) * (size_t)B * H * T * D);
}
