/* expect: WA */
/* Copies q into out: no attention at all. */
#include <string.h>

void alibi_softcap_attention(float *out, const float *q, const float *k, const float *v,
                             int B, int H, int T, int S, int D, int cap, int alibi)
{
    (void)k; (void)v; (void)S; (void)cap; (void)alibi;
    memcpy(out, q, sizeof(float) * (size_t)B * H * T * D);
}
