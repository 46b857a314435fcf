/* expect: WA */
/* Copies v into out: no attention at all. */
#include <string.h>

void learned_sink_attention(float *out, const float *q, const float *k, const float *v,
                            const float *sinks, int B, int H, int T, int D, int W)
{
    (void)q; (void)k; (void)sinks; (void)W;
    memcpy(out, v, sizeof(float) * (size_t)B * H * T * D);
}
