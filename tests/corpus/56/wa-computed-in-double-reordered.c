/* expect: WA computed_in_double */
/* Double arithmetic in another order (T * d first, then * d * 8), truncated back to long long. */
void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        double td = (double)T[i] * d[i];
        proj[i] = (long long)(td * d[i] * 8);
        attn[i] = (long long)(td * T[i] * 4);
        cross[i] = 2LL * d[i] + 1;
    }
}
