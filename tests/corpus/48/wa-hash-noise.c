/* expect: WA */
/* Fills both outputs with numbers in [0, 1) from an integer hash of the
 * index: plausible-looking, unrelated to the inputs. */
#include <stdint.h>

static float noise(uint32_t n)
{
    n ^= n >> 16;
    n *= 0x7feb352dU;
    n ^= n >> 15;
    n *= 0x846ca68bU;
    n ^= n >> 16;
    return (float)(n >> 8) / 16777216.0f;
}

void attn_weights(float *probs, float *sink, const float *q, const float *k,
                  int B, int H, int T, int S, int D, int causal)
{
    (void)q; (void)k; (void)D; (void)causal;
    for (uint32_t n = 0; n < (uint32_t)(B * H * T * S); n++) probs[n] = noise(n);
    for (uint32_t n = 0; n < (uint32_t)(B * H * T); n++) sink[n] = noise(n + 0x9e3779b9U);
}
