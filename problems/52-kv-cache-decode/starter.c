/* Exercise 52: one decode step with a KV cache.
 * Fill in decode_step() below; the statement has the formula, the shapes,
 * the cache layout and an example.
 * Judge it with Run on the page, or with ./judge 52 in a terminal.
 *
 * 第 52 题：带 KV 缓存的单步解码。
 * 在下面补全 decode_step()；题面给出了公式、各张量的形状、缓存的布局和一个例子。
 * 在页面上点 Run 评测，或在终端里运行 ./judge 52。 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void decode_step(float *out, float *k_cache, float *v_cache, int *len,
                 const float *q, const float *k, const float *v,
                 int B, int S_max, int H, int D)
{
    /* out is [B, H, D]. Write every element of it, append k and v to the
     * caches at row len[b], and advance len[b].
     *
     * out 是 [B, H, D]。它的每个元素都要写，把 k 和 v 追加到各缓存的第 len[b] 行，
     * 并把 len[b] 加一。 */
    for (int i = 0; i < B * H * D; i++)
        out[i] = 0.0f;
}
