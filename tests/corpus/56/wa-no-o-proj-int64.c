/* expect: WA no_o_proj */
/* Three projections, 6 T d^2; the crossover is still written as 2d + 1. */
#include <stdint.h>

void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        /* the int64_t first: the products are then 64-bit from the start */
        proj[i] = (int64_t)6 * T[i] * d[i] * d[i];   /* q, k, v */
        attn[i] = (int64_t)4 * T[i] * T[i] * d[i];
        cross[i] = (int64_t)2 * d[i] + 1;
    }
}
