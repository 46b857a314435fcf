/* expect: WA int_overflow */
/* Computes in unsigned int: well defined, but still modulo 2^32, and never negative. */
void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        unsigned int t = (unsigned int)T[i], w = (unsigned int)d[i];
        proj[i] = 8u * t * w * w;
        attn[i] = 4u * t * t * w;
        cross[i] = 2u * w + 1u;
    }
}
