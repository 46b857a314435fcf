/* Exercise 46: heads split and merge.
 * Fill in split_merge() below; the statement has the layouts and an example.
 * Judge it with Run on the page, or with ./judge 46 in a terminal.
 *
 * 第 46 题：多头的拆分与合并。
 * 在下面补全 split_merge()；题面给出了各张量的布局和一个例子。
 * 在页面上点 Run 评测，或在终端里运行 ./judge 46。 */
#include <string.h>

void split_merge(float *heads, float *merged, const float *x, const float *y,
                 int B, int T, int H, int D)
{
    /* heads is [B, H, T, D] and merged is [B, T, H*D]. Write every element.
     * heads 是 [B, H, T, D]，merged 是 [B, T, H*D]。每个元素都要写。 */
    for (int i = 0; i < B * H * T * D; i++) {
        heads[i] = 0.0f;
        merged[i] = 0.0f;
    }
}
