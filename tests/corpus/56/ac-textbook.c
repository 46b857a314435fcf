/* expect: AC */
/* Textbook: widen to long long first, then the three closed forms 8Td^2, 4T^2d, 2d+1. */
void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        long long dd = d[i], t = T[i];
        proj[i] = 8 * t * dd * dd;
        attn[i] = 4 * t * t * dd;
        cross[i] = 2 * dd + 1;
    }
}
