/* expect: WA */
/* Reads the two input arrays the wrong way round, d as the length and T as the width. */
#include <stdint.h>

void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        int64_t len = d[i], width = T[i];
        proj[i] = 8 * len * width * width;
        attn[i] = 4 * len * len * width;
        cross[i] = 2 * width + 1;
    }
}
