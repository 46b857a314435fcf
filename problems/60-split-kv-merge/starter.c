/* Exercise 60: merge the partial results of split-KV attention.
 * Fill in merge_splits() below; the statement has the formula, the shapes,
 * the rule for empty splits and an example.
 *
 * 第 60 题：合并分段 KV 注意力的部分结果。
 * 在下面补全 merge_splits()；题面给出了公式、各张量的形状、空段的规则
 * 和一个例子。 */
#include <math.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    /* TODO: for each of the B * H rows, weigh split p's output o_part by
     * exp(lse_part - lse), where lse is the log-sum-exp of the lse_part
     * (subtract their max first), and write the merged lse too.
     *
     * TODO：对 B * H 行中的每一行，第 p 段的输出 o_part 按
     * exp(lse_part - lse) 加权，其中 lse 是各 lse_part 的 log-sum-exp
     * （先减去它们的最大值），合并后的 lse 也要写。 */
    for (int i = 0; i < B * H * D; i++) out[i] = 0.0f;
    for (int i = 0; i < B * H; i++) lse[i] = 0.0f;
}
