/* expect: WA one_attention_matmul */
/* Counts the scores matmul but not P V, and derives T > 4d from those counts. */
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
        long long o = matmul(len, dm, dm);
        proj[i] = q + kk + vv + o;
        long long scores = matmul(len, dm, len);
        attn[i] = scores;
        /* attention wins when 2 T^2 d > 8 T d^2, that is T > 4d */
        cross[i] = 4 * dm + 1;
    }
}
