/* expect: WA int_overflow */
/* Keeps T * d in an int temporary (wraps past 2^31), then widens it for the rest. */
void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        unsigned long long t = (unsigned long long)T[i], w = (unsigned long long)d[i];
        int td = T[i] * d[i];                   /* one [T, d] activation */
        proj[i] = (long long)(4 * 2 * td * w);  /* four [T, d] x [d, d] */
        attn[i] = (long long)(2 * 2 * td * t);  /* Q K^T and P V */
        cross[i] = (long long)(2 * w + 1);      /* 4 T^2 d > 8 T d^2  <=>  T > 2d */
    }
}
