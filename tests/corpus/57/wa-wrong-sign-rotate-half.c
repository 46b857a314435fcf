/* expect: WA rotation_wrong_sign */
/* rotate_half written as cat(x2, -x1) instead of cat(-x2, x1), HF style over the whole vector, double. */
#include <math.h>
#include <stdlib.h>

void rope(float *x, const int *offset, int B, int H, int T, int D, int theta)
{
    int half = D / 2;
    float *rh = malloc(sizeof(float) * D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++) {
                float *v = x + ((b * H + h) * T + t) * D;
                for (int j = 0; j < half; j++) {
                    rh[j] = v[j + half];
                    rh[j + half] = -v[j];
                }
                for (int j = 0; j < D; j++) {
                    double a = (offset[b] + t) * pow(theta, -2.0 * (j % half) / D);
                    v[j] = (float)(v[j] * cos(a) + rh[j] * sin(a));
                }
            }
    free(rh);
}
