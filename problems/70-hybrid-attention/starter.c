/* Exercise 70: hybrid local + global attention.
 * Fill in hybrid_attention() below; the statement has the rule for which
 * keys a query sees, the shapes and an example.
 * TODO: query i sees key j <= i when j is in its window (i - W < j), or j is
 * global, or i is global; each seen key once, then a softmax over them.
 * global_idx[0 .. G-1] lists the global positions (G may be 0).
 *
 * 第 70 题：局部 + 全局的混合注意力。
 * 在下面补全 hybrid_attention()；题面给出了查询能看到哪些键的规则、
 * 各张量的形状和一个例子。
 * TODO：查询 i 看到键 j <= i 的条件是：j 在它的窗口里（i - W < j），
 * 或 j 是全局的，或 i 是全局的；每个看到的键只算一次，然后在它们上面做 softmax。
 * global_idx[0 .. G-1] 列出全局位置（G 可以是 0）。 */
#include <math.h>
#include <stdlib.h>

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    /* out is [B, H, T, D]. Write every element of it.
     * out 是 [B, H, T, D]。它的每个元素都要写。 */
    for (int i = 0; i < B * H * T * D; i++)
        out[i] = 0.0f;
}
