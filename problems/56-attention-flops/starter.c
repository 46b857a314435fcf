/* Exercise 56: attention FLOPs.
 * Fill in attn_flops() below; the statement has the counting convention,
 * the formulas and an example.
 * Judge it with Run on the page, or with ./judge 56 in a terminal.
 *
 * 第 56 题：注意力的浮点运算量。
 * 在下面补全 attn_flops()；题面给出了计数约定、公式和一个例子。
 * 在页面上点 Run 评测，或在终端里运行 ./judge 56。 */

void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    /* One answer per query i: write proj[i], attn[i] and cross[i].
     * 每个询问 i 一个答案：写 proj[i]、attn[i] 和 cross[i]。 */
    for (int i = 0; i < n; i++) {
        proj[i] = 0;
        attn[i] = 0;
        cross[i] = 0;
    }
}
