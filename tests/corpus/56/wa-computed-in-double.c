/* expect: WA computed_in_double */
/* Computes the counts in double and converts back: exact below 2^53, rounded above. */
void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        double p = 8.0 * T[i] * d[i] * d[i];
        double a = 4.0 * T[i] * T[i] * d[i];
        proj[i] = (long long)p;
        attn[i] = (long long)a;
        cross[i] = 2 * d[i] + 1;
    }
}
