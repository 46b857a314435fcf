/* expect: WA one_attention_matmul */
/* Counts the scores a causal layer keeps, sum over queries of (i + 1)
 * keys, and finds the crossover by comparing the two counts, from its own
 * (half) attention count. */
static long long proj_of(long long d, long long t) { return 4 * 2 * t * d * d; }
static long long attn_of(long long d, long long t) { return 2 * 2 * (t * (t + 1) / 2) * d; }

void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        long long dd = d[i], t = T[i];
        proj[i] = proj_of(dd, t);
        attn[i] = attn_of(dd, t);
        /* attn > proj  <=>  (t + 1) > 4 d */
        cross[i] = 4 * dd;
    }
}
