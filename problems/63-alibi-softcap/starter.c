/* Exercise 63: ALiBi and logit soft-capping.
 * Fill in alibi_softcap_attention() below: causal attention with the
 * KV-cache offset whose scores are scaled, soft-capped when cap > 0 and
 * given ALiBi's per-head linear bias when alibi is set. The statement has
 * the formula, the order of the steps, the shapes and an example.
 *
 * 第 63 题：ALiBi 与 logit 软截断。
 * 在下面补全 alibi_softcap_attention()：带 KV 缓存偏移的因果注意力，
 * 分数要缩放，cap > 0 时做软截断，设置了 alibi 时加上 ALiBi 的每头线性偏置。
 * 题面给出了公式、各步的顺序、各张量的形状和一个例子。 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void alibi_softcap_attention(float *out, const float *q, const float *k, const float *v,
                             int B, int H, int T, int S, int D, int cap, int alibi)
{
    /* TODO: out is [B, H, T, D]. Write every element of it.
     * TODO：out 是 [B, H, T, D]。它的每个元素都要写。 */
    for (int i = 0; i < B * H * T * D; i++)
        out[i] = 0.0f;
}
