/* expect: WA last_pair_unrotated */
/* Angles in double, one pointer walking the tokens; "i <= half - 2" leaves the last pair as it was. */
#include <math.h>

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    float *p = x;
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++, p += D)
                for (int i = 0; i <= D / 2 - 2; i++) {
                    double ang = (offset[b] + t) * pow(theta, -2.0 * i / D);
                    double lo = p[i], hi = p[i + D / 2];
                    p[i] = (float)(lo * cos(ang) - hi * sin(ang));
                    p[i + D / 2] = (float)(hi * cos(ang) + lo * sin(ang));
                }
}
