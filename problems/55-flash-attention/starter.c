/* Exercise 55: FlashAttention forward.
 * Fill in flash_attention() below; the statement has the algorithm, the
 * shapes, the memory budget and an example.
 * Judge it with Run on the page, or with ./judge 55 in a terminal.
 *
 * 第 55 题：FlashAttention 前向计算。
 * 在下面补全 flash_attention()；题面给出了算法、各张量的形状、内存预算和一个例子。
 * 在页面上点 Run 评测，或在终端里运行 ./judge 55。 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void flash_attention(float *out, float *lse, const float *q, const float *k,
                     const float *v, float *scratch, int B, int H, int T, int S,
                     int D, int causal, int n_scratch)
{
    /* out is [B, H, T, D] and lse is [B, H, T]. Write every element of both.
     * scratch holds n_scratch floats for you to use (no more).
     *
     * out 是 [B, H, T, D]，lse 是 [B, H, T]。两者的每个元素都要写。
     * scratch 有 n_scratch 个 float 供你使用（不能再多）。 */
    for (int i = 0; i < B * H * T * D; i++)
        out[i] = 0.0f;
    for (int i = 0; i < B * H * T; i++)
        lse[i] = 0.0f;
}
