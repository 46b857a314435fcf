/* expect: WA one_input_for_every_query */
/* Walks T with a pointer and d through another that is never moved on, so
 * every query is counted with the first query's width. */
void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    const int *dp = d, *tp = T;
    long long *p = proj, *a = attn, *c = cross;
    while (n-- > 0) {
        long long w = *dp, t = *tp++;
        *p++ = 8LL * t * w * w;
        *a++ = 4LL * t * t * w;
        *c++ = 2 * w + 1;
    }
}
