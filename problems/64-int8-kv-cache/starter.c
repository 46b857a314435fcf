/* Exercise 64: one decode step over an int8 KV cache.
 * Fill in int8_decode_step() below; the statement has the quantisation
 * rule, the shapes, the cache layout and an example. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void int8_decode_step(float *out, signed char *k_q, signed char *v_q,
                      float *k_scale, float *v_scale, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D)
{
    /* TODO: quantise the new k and v per head into row len[b] of k_q, v_q
     * (with their scales in k_scale, v_scale), attend with q over rows
     * 0 .. len[b] dequantised, write every element of out [B, H, D], and
     * advance len[b]. */
    for (int i = 0; i < B * H * D; i++)
        out[i] = 0.0f;
}
