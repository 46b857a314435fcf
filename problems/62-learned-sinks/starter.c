/* Exercise 62: learned attention sinks (gpt-oss).
 * Fill in learned_sink_attention() below: causal attention in which every
 * softmax also holds the head's sink logit sinks[h] (a key with no value),
 * with a sliding window of W keys when W > 0. The statement has the
 * formula, the shapes and an example.
 *
 * 第 62 题：可学习的注意力汇聚 logit（gpt-oss）。
 * 在下面补全 learned_sink_attention()：因果注意力，每次 softmax 里都还有
 * 这个头的汇聚 logit sinks[h]（一个没有值的键），W > 0 时带 W 个键的
 * 滑动窗口。题面给出了公式、各张量的形状和一个例子。 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void learned_sink_attention(float *out, const float *q, const float *k, const float *v,
                            const float *sinks, int B, int H, int T, int D, int W)
{
    /* TODO: out is [B, H, T, D]. Write every element of it.
     * TODO：out 是 [B, H, T, D]。它的每个元素都要写。 */
    for (int i = 0; i < B * H * T * D; i++)
        out[i] = 0.0f;
}
