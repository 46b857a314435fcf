/* expect: AC */
/* Per head (H = 1 here, since heads cancel) with int64_t; finds the crossover by bisection on the FLOP counts themselves. */
#include <stdint.h>

static int64_t proj_of(int64_t d, int64_t t) { return 4 * (2 * t * d * d); }
static int64_t attn_of(int64_t d, int64_t t) { return 2 * (2 * t * t * d); }

void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        proj[i] = proj_of(d[i], T[i]);
        attn[i] = attn_of(d[i], T[i]);
        int64_t lo = 1, hi = 4 * (int64_t)d[i] + 2;   /* attn > proj at hi */
        while (lo < hi) {
            int64_t mid = lo + (hi - lo) / 2;
            if (attn_of(d[i], mid) > proj_of(d[i], mid)) hi = mid;
            else lo = mid + 1;
        }
        cross[i] = lo;
    }
}
