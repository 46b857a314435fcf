/* Exercise 47: scaled dot-product attention.
 * Fill in sdpa() below; the statement has the formula, the shapes and an
 * example.
 * Judge it with Run on the page, or with ./judge 47 in a terminal.
 *
 * 第 47 题：缩放点积注意力。
 * 在下面补全 sdpa()；题面给出了公式、各张量的形状和一个例子。
 * 在页面上点 Run 评测，或在终端里运行 ./judge 47。 */
#include <math.h>
#include <stdlib.h>

void sdpa(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    /* out is [B, H, T, D]. Write every element of it.
     * out 是 [B, H, T, D]。它的每个元素都要写。 */
    for (int i = 0; i < B * H * T * D; i++)
        out[i] = 0.0f;
}
