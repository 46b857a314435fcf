/* expect: WA scale_by_d */
/* Sequence loop in double with the scale 1.0 / D precomputed, a common slip for 1/sqrt(D). */
#include <math.h>
#include <stdlib.h>

void varlen_attention(float *out, const float *q, const float *k, const float *v,
                      const int *cu_seqlens, int B, int total, int H, int D)
{
    const double inv = 1.0 / D;
    double *e = malloc(sizeof(double) * (size_t)total);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = cu_seqlens[b]; t < cu_seqlens[b + 1]; t++) {
                double m = -INFINITY, z = 0.0;
                for (int j = cu_seqlens[b]; j <= t; j++) {
                    double s = 0.0;
                    for (int c = 0; c < D; c++) s += (double)q[(t * H + h) * D + c] * k[(j * H + h) * D + c];
                    e[j] = s * inv;
                    m = e[j] > m ? e[j] : m;
                }
                for (int j = cu_seqlens[b]; j <= t; j++) z += (e[j] = exp(e[j] - m));
                for (int c = 0; c < D; c++) {
                    double a = 0.0;
                    for (int j = cu_seqlens[b]; j <= t; j++) a += e[j] * v[(j * H + h) * D + c];
                    out[(t * H + h) * D + c] = (float)(a / z);
                }
            }
    free(e);
}
