/* expect: WA crossover_at_tie */
/* Right counts in unsigned 64-bit; the crossover is 2d, where the two are only equal. */
void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        unsigned long long t = (unsigned long long)T[i], w = (unsigned long long)d[i];
        unsigned long long td = t * w;          /* one [T, d] activation */
        proj[i] = (long long)(4 * 2 * td * w);  /* four [T, d] x [d, d] */
        attn[i] = (long long)(2 * 2 * td * t);  /* Q K^T and P V */
        cross[i] = (long long)(2 * w);          /* 4 T^2 d = 8 T d^2 at T = 2d */
    }
}
