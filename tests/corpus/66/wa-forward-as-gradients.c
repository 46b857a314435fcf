/* expect: WA */
/* Returns the forward's tensors: dq = out, dk = k, dv = v. */
#include <string.h>

void flash_attention_backward(float *dq, float *dk, float *dv, const float *q,
                              const float *k, const float *v, const float *out,
                              const float *lse, const float *d_out, int B, int H, int T,
                              int S, int D, int causal)
{
    (void)q, (void)lse, (void)d_out, (void)causal;
    memcpy(dq, out, sizeof(float) * B * H * T * D);
    memcpy(dk, k, sizeof(float) * B * H * S * D);
    memcpy(dv, v, sizeof(float) * B * H * S * D);
}
