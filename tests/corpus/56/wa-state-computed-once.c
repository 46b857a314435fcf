/* expect: WA depends_on_earlier_calls */
/* Fills static tables on the first call only (a done flag), then copies them out on every call. */
#include <stdint.h>

#define MAXQ 65

static long long tab_p[MAXQ], tab_a[MAXQ], tab_c[MAXQ];
static int done;

void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    if (!done) {   /* the counts only need working out once */
        for (int i = 0; i < n && i < MAXQ; i++) {
            /* the int64_t first: the products are then 64-bit from the start */
            tab_p[i] = (int64_t)8 * T[i] * d[i] * d[i];
            tab_a[i] = (int64_t)4 * T[i] * T[i] * d[i];
            tab_c[i] = (int64_t)2 * d[i] + 1;
        }
        done = 1;
    }
    for (int i = 0; i < n && i < MAXQ; i++) {
        proj[i] = tab_p[i];
        attn[i] = tab_a[i];
        cross[i] = tab_c[i];
    }
}
