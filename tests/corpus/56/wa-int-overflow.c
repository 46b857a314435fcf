/* expect: WA int_overflow */
/* Multiplies the int inputs directly: the products are computed in 32-bit int and wrap before they are stored. */
void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        int p = 8 * T[i] * d[i] * d[i];
        int a = 4 * T[i] * T[i] * d[i];
        proj[i] = p;
        attn[i] = a;
        cross[i] = 2 * d[i] + 1;
    }
}
