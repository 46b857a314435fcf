/* expect: WA one_attention_matmul */
/* Counts Q K^T but not P V; the crossover follows from the wrong counts (T > 4d). */
void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        long long dd = d[i], t = T[i];
        proj[i] = 8 * t * dd * dd;
        attn[i] = 2 * t * t * dd;
        cross[i] = 4 * dd + 1;
    }
}
