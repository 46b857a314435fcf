/* expect: WA offset_ignored */
/* A cos/sin table for positions 0 .. T-1 built once (as for a prompt with no cache) and used for every sequence; double angles, VLAs. */
#include <math.h>

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    (void)offset;
    int half = D / 2;
    float c[T][half], s[T][half];
    for (int t = 0; t < T; t++)
        for (int i = 0; i < half; i++) {
            double a = t * pow(theta, -2.0 * i / D);
            c[t][i] = (float)cos(a);
            s[t][i] = (float)sin(a);
        }
    for (int bh = 0; bh < B * H; bh++)
        for (int t = 0; t < T; t++) {
            float *v = x + (bh * T + t) * D;
            for (int i = 0; i < half; i++) {
                float a = v[i], w = v[i + half];
                v[i] = a * c[t][i] - w * s[t][i];
                v[i + half] = w * c[t][i] + a * s[t][i];
            }
        }
}
