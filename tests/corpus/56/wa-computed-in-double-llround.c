/* expect: WA computed_in_double */
/* Double products rounded to nearest with llround(): still only 53 bits of mantissa. */
#include <math.h>

void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        double dd = d[i], t = T[i];
        proj[i] = llround(8.0 * t * dd * dd);
        attn[i] = llround(4.0 * t * t * dd);
        cross[i] = llround(2.0 * dd + 1.0);
    }
}
