/* Exercise 69: top-k sparse attention.
 * Fill in topk_attention() below; the statement has the rule for which keys
 * a query keeps, the shapes and an example.
 * TODO: for each query i, score the keys j <= i, keep the topk best (ties to
 * the lower index) and take the softmax over the kept keys only.
 *
 * 第 69 题：Top-k 稀疏注意力。
 * 在下面补全 topk_attention()；题面给出了查询保留哪些键的规则、各张量的形状
 * 和一个例子。
 * TODO：对每个查询 i，给 j <= i 的键打分，保留分数最高的 topk 个
 * （分数相同时取下标小的），只在保留的键上做 softmax。 */
#include <math.h>
#include <stdlib.h>

void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    /* out is [B, H, T, D]. Write every element of it.
     * out 是 [B, H, T, D]。它的每个元素都要写。 */
    for (int i = 0; i < B * H * T * D; i++)
        out[i] = 0.0f;
}
