/* expect: WA pair_overwritten_in_place */
/* Two pointers into the halves, double angles; *lo is updated before *hi reads it. */
#include <math.h>

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    int half = D / 2;
    for (int b = 0; b < B; b++)
        for (int ht = 0; ht < H * T; ht++) {
            int t = ht % T;
            float *lo = x + ((long)b * H * T + ht) * D, *hi = lo + half;
            for (int i = 0; i < half; i++, lo++, hi++) {
                double a = (double)(offset[b] + t) * pow((double)theta, -2.0 * i / D);
                *lo = (float)(*lo * cos(a) - *hi * sin(a));
                *hi = (float)(*hi * cos(a) + *lo * sin(a));
            }
        }
}
