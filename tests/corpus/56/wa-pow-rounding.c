/* expect: WA computed_in_double */
/* Uses pow() and ceil() on doubles: another floating-point route, rounded above 2^53 like plain double products. */
#include <math.h>
void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        proj[i] = (long long)(8 * pow(d[i], 2) * T[i]);
        attn[i] = (long long)(4 * pow(T[i], 2) * d[i]);
        cross[i] = (long long)ceil(2.0 * d[i] + 0.5);
    }
}
