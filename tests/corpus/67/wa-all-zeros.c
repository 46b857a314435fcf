/* expect: WA */
/* Writes zeros into every output, as the starter does. */
#include <string.h>

void linear_attention(float *out, const float *q, const float *k, const float *v, int B, int H,
                      int T, int D, int E)
{
    (void)q, (void)k, (void)v;
    memset(out, 0, sizeof(float) * (size_t)B * H * T * E);
}
