/* Exercise 58: one decode step with RoPE in the KV cache.
 * Fill in rope_decode_step() below; the statement has the formula, the
 * shapes, the cache layout and an example.
 *
 * 第 58 题：KV 缓存中带 RoPE 的单步解码。
 * 在下面补全 rope_decode_step()；题面给出了公式、各张量的形状、缓存的布局
 * 和一个例子。 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void rope_decode_step(float *out, float *k_cache, float *v_cache, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D, int theta)
{
    /* out is [B, H, D]. TODO: turn q and k of the new token with RoPE at
     * position len[b], append the turned k and v to the caches at row
     * len[b], attend over rows 0 .. len[b], and advance len[b]. As it is,
     * only zeros are written.
     *
     * out 是 [B, H, D]。TODO：用 RoPE 把新词元的 q 和 k 转到位置 len[b]，
     * 把转好的 k 和 v 追加到各缓存的第 len[b] 行，在第 0 .. len[b] 行上做注意力，
     * 再把 len[b] 加一。照现在这样，只写了 0。 */
    for (int i = 0; i < B * H * D; i++)
        out[i] = 0.0f;
}
