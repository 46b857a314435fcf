/* Exercise 56: attention FLOPs.
 * Fill in attn_flops() below; the statement has the counting convention,
 * the formulas and an example.
 * Judge it with Run on the page, or with ./judge 56 in a terminal. */

void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    /* One answer per query i: write proj[i], attn[i] and cross[i]. */
    for (int i = 0; i < n; i++) {
        proj[i] = 0;
        attn[i] = 0;
        cross[i] = 0;
    }
}
