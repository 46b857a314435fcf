/* expect: WA no_o_proj */
/* Adds q, k and v only, and solves 4 T^2 d > 6 T d^2 for the crossover: T > 3d / 2. */
/* the FLOPs of an [m, k] x [k, n] product, 2 per multiply-add */
static long long matmul(long long m, long long k, long long n)
{
    return 2 * m * k * n;
}

void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        long long dm = d[i];
        long long len = T[i];
        long long q = matmul(len, dm, dm);
        long long kk = matmul(len, dm, dm);
        long long vv = matmul(len, dm, dm);
        proj[i] = q + kk + vv;
        long long scores = matmul(len, dm, len);
        long long mix = matmul(len, len, dm);
        attn[i] = scores + mix;
        /* attention wins when 4 T^2 d > 6 T d^2, that is T > 3d / 2 */
        cross[i] = 3 * dm / 2 + 1;
    }
}
