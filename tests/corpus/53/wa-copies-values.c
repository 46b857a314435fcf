/* expect: WA */
/* Writes v as the output (attention skipped). */
#include <string.h>

void sink_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int n_sink, int window)
{
    (void)q, (void)k, (void)n_sink, (void)window;
    memcpy(out, v, sizeof(float) * (size_t)B * H * T * D);
}
