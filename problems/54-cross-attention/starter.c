/* Exercise 54: cross-attention with an encoder padding mask.
 * Fill in cross_attention() below; the statement has the formula, the shapes
 * and an example.
 * Judge it with Run on the page, or with ./judge 54 in a terminal.
 *
 * 第 54 题：带编码器填充掩码的交叉注意力。
 * 在下面补全 cross_attention()；题面给出了公式、各张量的形状和一个例子。
 * 在页面上点 Run 评测，或在终端里运行 ./judge 54。 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void cross_attention(float *out, const float *q, const float *k, const float *v,
                     const unsigned char *enc_mask, int B, int H, int T, int S, int D)
{
    /* out is [B, H, T, D]. Write every element of it.
     * out 是 [B, H, T, D]。它的每个元素都要写。 */
    for (int i = 0; i < B * H * T * D; i++)
        out[i] = 0.0f;
}
