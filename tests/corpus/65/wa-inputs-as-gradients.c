/* expect: WA */
/* Copies the inputs into the gradients: dq = q, dk = k, dv = v. */
#include <string.h>

void attention_backward(float *dq, float *dk, float *dv, const float *q, const float *k,
                        const float *v, const float *d_out, int B, int H, int T, int S,
                        int D, int causal)
{
    (void)d_out, (void)causal;
    memcpy(dq, q, sizeof(float) * B * H * T * D);
    memcpy(dk, k, sizeof(float) * B * H * S * D);
    memcpy(dv, v, sizeof(float) * B * H * S * D);
}
