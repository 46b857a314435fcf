/* Exercise 64: one decode step over an int8 KV cache.
 * Fill in int8_decode_step() below; the statement has the quantisation
 * rule, the shapes, the cache layout and an example.
 *
 * 第 64 题：int8 KV 缓存上的单步解码。
 * 在下面补全 int8_decode_step()；题面给出了量化规则、各张量的形状、
 * 缓存的布局和一个例子。 */
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
     * advance len[b].
     *
     * TODO：把新的 k 和 v 按头量化，写进 k_q、v_q 的第 len[b] 行（它们的 scale
     * 写进 k_scale、v_scale），用 q 在反量化后的第 0 .. len[b] 行上做注意力，
     * 写 out [B, H, D] 的每个元素，再把 len[b] 加一。 */
    for (int i = 0; i < B * H * D; i++)
        out[i] = 0.0f;
}
