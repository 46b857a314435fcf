/* expect: WA attends_across_sequences */
/* Loops over the sequences for the queries but starts every key loop at token 0 of the pack (online softmax, double). */
#include <math.h>

void varlen_attention(float *out, const float *q, const float *k, const float *v,
                      const int *cu_seqlens, int B, int total, int H, int D)
{
    (void)total;
    for (int b = 0; b < B; b++)
        for (int t = cu_seqlens[b]; t < cu_seqlens[b + 1]; t++)
            for (int h = 0; h < H; h++) {
                double m = -INFINITY, l = 0.0, acc[64] = { 0 };
                for (int j = 0; j <= t; j++) {
                    double s = 0.0;
                    for (int c = 0; c < D; c++) s += (double)q[(t * H + h) * D + c] * k[(j * H + h) * D + c];
                    s /= sqrt((double)D);
                    double m2 = s > m ? s : m, corr = exp(m - m2), e = exp(s - m2);
                    l = l * corr + e;
                    for (int c = 0; c < D; c++) acc[c] = acc[c] * corr + e * v[(j * H + h) * D + c];
                    m = m2;
                }
                for (int c = 0; c < D; c++) out[(t * H + h) * D + c] = (float)(acc[c] / l);
            }
}
