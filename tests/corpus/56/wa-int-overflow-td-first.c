/* expect: WA int_overflow */
/* T*d is worked out once, in int, and reused: it wraps before the widening multiply. */
void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        int tokens_by_width = T[i] * d[i];
        proj[i] = 4LL * 2 * tokens_by_width * d[i];
        attn[i] = 2LL * 2 * T[i] * T[i] * d[i];
        cross[i] = 2LL * d[i] + 1;
    }
}
