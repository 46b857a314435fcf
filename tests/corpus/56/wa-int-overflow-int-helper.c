/* expect: WA int_overflow */
/* The matmul() helper takes and multiplies int: the product wraps inside it, and only its result becomes long long. */
/* the FLOPs of an [m, k] x [k, n] product, 2 per multiply-add */
static long long matmul(int m, int k, int n)
{
    return 2 * m * k * n;
}

void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        int dm = d[i];
        int len = T[i];
        long long q = matmul(len, dm, dm);
        long long kk = matmul(len, dm, dm);
        long long vv = matmul(len, dm, dm);
        long long o = matmul(len, dm, dm);
        proj[i] = q + kk + vv + o;
        long long scores = matmul(len, dm, len);
        long long mix = matmul(len, len, dm);
        attn[i] = scores + mix;
        /* attention wins when 4 T^2 d > 8 T d^2, that is T > 2d */
        cross[i] = dm + dm + 1;
    }
}
