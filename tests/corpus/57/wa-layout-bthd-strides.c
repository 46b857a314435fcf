/* expect: WA layout_bthd */
/* Strides named once at the top, as for a [B, T, H, D] tensor (the token stride H*D, the head stride D); angles in double. */
#include <math.h>

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    const long s_b = (long)T * H * D, s_t = (long)H * D, s_h = D;
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++) {
                float *v = x + b * s_b + t * s_t + h * s_h;
                for (int i = 0; i < D / 2; i++) {
                    double ang = (double)(offset[b] + t) / pow((double)theta, (2.0 * i) / D);
                    float c = (float)cos(ang), s = (float)sin(ang), u = v[i], w = v[i + D / 2];
                    v[i] = u * c - w * s;
                    v[i + D / 2] = w * c + u * s;
                }
            }
}
