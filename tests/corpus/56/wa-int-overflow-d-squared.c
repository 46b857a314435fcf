/* expect: WA int_overflow; wasm: WA */
/* Stores d * d, computed in int, in a long long: d^2 wraps once d > 46340, the rest is 64-bit. */
void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        long long dd = d[i] * d[i];   /* int * int: wraps before the assignment widens it */
        proj[i] = 8 * T[i] * dd;
        attn[i] = 4LL * T[i] * T[i] * d[i];
        cross[i] = 2LL * d[i] + 1;
    }
}
