/* expect: WA state_kept_between_calls */
/* Remembers the answers of the last call and returns them again when n is the same. */
#include <stdint.h>
#include <string.h>

#define MEMO 65

static long long memo_p[MEMO], memo_a[MEMO], memo_c[MEMO];
static int memo_n = -1;

void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    if (n == memo_n) {   /* the same question as last time */
        memcpy(proj, memo_p, sizeof(long long) * n);
        memcpy(attn, memo_a, sizeof(long long) * n);
        memcpy(cross, memo_c, sizeof(long long) * n);
        return;
    }
    for (int i = 0; i < n; i++) {
        /* the int64_t first: the products are then 64-bit from the start */
        proj[i] = (int64_t)8 * T[i] * d[i] * d[i];
        attn[i] = (int64_t)4 * T[i] * T[i] * d[i];
        cross[i] = (int64_t)2 * d[i] + 1;
    }
    if (n <= MEMO) {
        memcpy(memo_p, proj, sizeof(long long) * n);
        memcpy(memo_a, attn, sizeof(long long) * n);
        memcpy(memo_c, cross, sizeof(long long) * n);
        memo_n = n;
    }
}
