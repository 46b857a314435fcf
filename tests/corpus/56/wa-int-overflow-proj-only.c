/* expect: WA int_overflow */
/* Widens attn (2LL first) but not proj: 4 * 2 * T * d * d is computed in int and wraps, then cast (too late) to long long. */
void attn_flops(long long *proj, long long *attn, long long *cross, const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        proj[i] = (long long)(4 * 2 * T[i] * d[i] * d[i]);
        attn[i] = (long long)2 * 2 * T[i] * T[i] * d[i];
        cross[i] = 2 * d[i] + 1;
    }
}
