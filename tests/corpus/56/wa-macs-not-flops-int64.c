/* expect: WA macs_not_flops */
/* Counts T d^2 per projection and T^2 d per attention product: multiply-adds, not FLOPs. */
#include <stdint.h>

void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        /* the int64_t first: the products are then 64-bit from the start */
        proj[i] = (int64_t)4 * T[i] * d[i] * d[i];
        attn[i] = (int64_t)2 * T[i] * T[i] * d[i];
        cross[i] = (int64_t)2 * d[i] + 1;
    }
}
