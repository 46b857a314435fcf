/* expect: AC; wasm: WA int_overflow */
/* Widens to long: 64-bit on the native judge (LP64), but long is 32-bit in wasm32, where the products wrap as in int. */
void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        long dd = d[i], t = T[i];
        proj[i] = 8 * t * dd * dd;
        attn[i] = 4 * t * t * dd;
        cross[i] = 2 * dd + 1;
    }
}
