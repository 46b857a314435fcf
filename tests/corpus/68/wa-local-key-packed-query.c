/* expect: WA causal_packed_vs_local */
/* Counts keys from the sequence's start (jj = 0 .. len-1) but masks them against the packed query index t, so later sequences see their own future (double accumulation). */
#include <math.h>
#include <stdlib.h>

void varlen_attention(float *out, const float *q, const float *k, const float *v,
                      const int *cu_seqlens, int B, int total, int H, int D)
{
    double *sc = malloc(sizeof(double) * (size_t)total);
    for (int b = 0; b < B; b++) {
        const int base = cu_seqlens[b], len = cu_seqlens[b + 1] - cu_seqlens[b];
        for (int t = base; t < base + len; t++)
            for (int h = 0; h < H; h++) {
                double mx = -INFINITY, tot = 0.0;
                int n = 0;
                for (int jj = 0; jj < len && jj <= t; jj++, n++) {
                    double s = 0.0;
                    for (int c = 0; c < D; c++)
                        s += (double)q[(t * H + h) * D + c] * k[((base + jj) * H + h) * D + c];
                    sc[jj] = s / sqrt((double)D);
                    if (sc[jj] > mx) mx = sc[jj];
                }
                for (int jj = 0; jj < n; jj++) tot += (sc[jj] = exp(sc[jj] - mx));
                for (int c = 0; c < D; c++) {
                    double a = 0.0;
                    for (int jj = 0; jj < n; jj++) a += sc[jj] * v[((base + jj) * H + h) * D + c];
                    out[(t * H + h) * D + c] = (float)(a / tot);
                }
            }
    }
    free(sc);
}
