/* expect: AC */
/* One pass over the packed tokens, each finding its sequence by walking cu_seqlens; scores and sums in double. */
#include <math.h>
#include <stdlib.h>

void varlen_attention(float *out, const float *q, const float *k, const float *v,
                      const int *cu_seqlens, int B, int total, int H, int D)
{
    double *p = malloc(sizeof(double) * (size_t)total), *acc = malloc(sizeof(double) * (size_t)D);
    int b = 0;
    for (int t = 0; t < total; t++) {
        while (b < B - 1 && t >= cu_seqlens[b + 1]) b++;   /* empty sequences are skipped */
        int start = cu_seqlens[b];
        for (int h = 0; h < H; h++) {
            double mx = -INFINITY, sum = 0.0;
            for (int j = start; j <= t; j++) {
                double s = 0.0;
                for (int c = 0; c < D; c++) s += (double)q[(t * H + h) * D + c] * k[(j * H + h) * D + c];
                p[j] = s / sqrt((double)D);
                if (p[j] > mx) mx = p[j];
            }
            for (int c = 0; c < D; c++) acc[c] = 0.0;
            for (int j = start; j <= t; j++) {
                double e = exp(p[j] - mx);
                sum += e;
                for (int c = 0; c < D; c++) acc[c] += e * v[(j * H + h) * D + c];
            }
            for (int c = 0; c < D; c++) out[(t * H + h) * D + c] = (float)(acc[c] / sum);
        }
    }
    free(p);
    free(acc);
}
