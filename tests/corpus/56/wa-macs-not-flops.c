/* expect: WA macs_not_flops */
/* Counts multiply-adds (MACs), 1 per multiply-add, instead of 2 FLOPs each. */
void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        long long dd = d[i], t = T[i];
        proj[i] = 4 * t * dd * dd;
        attn[i] = 2 * t * t * dd;
        cross[i] = 2 * dd + 1;
    }
}
