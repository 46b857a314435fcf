/* expect: WA crossover_at_tie */
/* Searches T upwards for the first length where attention is >= the projections, so it stops at the tie. */
void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        long long dd = d[i], t = T[i];
        proj[i] = 8 * t * dd * dd;
        attn[i] = 4 * t * t * dd;
        long long len = 1;
        while (4 * len * len * dd < 8 * len * dd * dd) len++;   /* until attention catches up */
        cross[i] = len;
    }
}
