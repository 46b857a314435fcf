/* Exercise 53: attention sinks (StreamingLLM).
 * Fill in sink_attention() below; the statement has the rule for which keys
 * each query sees, the shapes and an example.
 * Judge it with Run on the page, or with ./judge 53 in a terminal.
 *
 * 第 53 题：注意力汇聚点（StreamingLLM）。
 * 在下面补全 sink_attention()；题面给出了每个查询能看到哪些键的规则、
 * 各张量的形状和一个例子。
 * 在页面上点 Run 评测，或在终端里运行 ./judge 53。 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void sink_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int n_sink, int window)
{
    /* out is [B, H, T, D]. Write every element of it.
     * out 是 [B, H, T, D]。它的每个元素都要写。 */
    for (int i = 0; i < B * H * T * D; i++)
        out[i] = 0.0f;
}
