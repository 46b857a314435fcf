/* expect: WA crossover_at_tie */
/* Right counts, but the crossover is where the two are equal (T = 2d), not where attention costs more. */
void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        long long dd = d[i], t = T[i];
        proj[i] = 8 * t * dd * dd;
        attn[i] = 4 * t * t * dd;
        cross[i] = 2 * dd;
    }
}
