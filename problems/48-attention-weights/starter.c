/* Exercise 48: attention weights and the attention sink.
 * Fill in attn_weights() below; the statement has the formula, the shapes and
 * an example.
 * Judge it with Run on the page, or with ./judge 48 in a terminal.
 *
 * 第 48 题：注意力权重与注意力汇聚点。
 * 在下面补全 attn_weights()；题面给出了公式、各张量的形状和一个例子。
 * 在页面上点 Run 评测，或在终端里运行 ./judge 48。 */
#include <math.h>

void attn_weights(float *probs, float *sink, const float *q, const float *k,
                  int B, int H, int T, int S, int D, int causal)
{
    /* probs is [B, H, T, S] and sink is [B, H, T]. Write every element.
     * probs 是 [B, H, T, S]，sink 是 [B, H, T]。每个元素都要写。 */
    for (int i = 0; i < B * H * T * S; i++)
        probs[i] = 0.0f;
    for (int i = 0; i < B * H * T; i++)
        sink[i] = 0.0f;
}
