/* expect: WA computed_in_double */
/* Counts computed in float and cast back: exact only below 2^24. */
void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        float dd = (float)d[i], t = (float)T[i];
        proj[i] = (long long)(8.0f * t * dd * dd);
        attn[i] = (long long)(4.0f * t * t * dd);
        cross[i] = 2 * d[i] + 1;
    }
}
