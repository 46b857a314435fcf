/* Exercise 49: causal multi-head attention.
 * Fill in mha() below; the statement has the formula, the shapes and an
 * example.
 * Judge it with Run on the page, or with ./judge 49 in a terminal.
 *
 * 第 49 题：因果多头注意力。
 * 在下面补全 mha()；题面给出了公式、各张量的形状和一个例子。
 * 在页面上点 Run 评测，或在终端里运行 ./judge 49。 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void mha(float *out, const float *x,
         const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    /* out is [B, T, d]. Write every element of it.
     * out 是 [B, T, d]。它的每个元素都要写。 */
    for (int i = 0; i < B * T * d; i++)
        out[i] = 0.0f;
}
