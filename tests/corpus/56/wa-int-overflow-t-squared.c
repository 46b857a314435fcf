/* expect: WA int_overflow; wasm: WA */
/* Parenthesises T * T, which is then computed in int before the long long multiply. */
void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        proj[i] = 8LL * T[i] * d[i] * d[i];
        attn[i] = 4LL * d[i] * (T[i] * T[i]);
        cross[i] = 2LL * d[i] + 1;
    }
}
