/* expect: WA attention_d_squared */
/* FLOPs of one layer's attention, matmul by matmul: an [m, k] x [k, n]
 * product costs 2 m k n. */
static long long mm(long long m, long long k, long long n) { return 2 * m * k * n; }

void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        long long dd = d[i], t = T[i];
        proj[i] = 4 * mm(t, dd, dd);            /* W_q, W_k, W_v, W_o */
        attn[i] = mm(t, dd, dd) + mm(t, dd, dd);   /* Q K^T and P V */
        cross[i] = 2 * dd + 1;                  /* 4 T^2 d > 8 T d^2 from T = 2d + 1 */
    }
}
