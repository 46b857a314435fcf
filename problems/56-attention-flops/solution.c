/* Exercise 56, a reference solution: count the FLOPs of one attention layer
 * in 64-bit integers, 2 FLOPs per multiply-add. */

void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        /* Widen before multiplying: d * d * T overflows int long before it
         * overflows long long. */
        long long dd = d[i], t = T[i];
        proj[i] = 4 * 2 * t * dd * dd;   /* q, k, v, o: [T, d] x [d, d] each */
        attn[i] = 2 * 2 * t * t * dd;    /* Q K^T and P V: 2 T^2 d each */
        cross[i] = 2 * dd + 1;           /* 4 T^2 d > 8 T d^2  <=>  T > 2d */
    }
}
