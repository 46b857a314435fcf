/* expect: WA no_o_proj */
/* Counts q, k and v but forgets the output projection; the crossover follows from the wrong counts (T > 1.5 d). */
void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        long long dd = d[i], t = T[i];
        proj[i] = 3 * 2 * t * dd * dd;
        attn[i] = 2 * 2 * t * t * dd;
        cross[i] = 3 * dd / 2 + 1;
    }
}
