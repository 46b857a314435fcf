/* expect: WA outputs_averaged */
/* In double: the mean of the splits that have keys, empty ones left out; the lse is right. */
#include <math.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            int r = b * H + h, n = 0;
            double m = -INFINITY, s = 0, acc[32] = { 0 };
            for (int p = 0; p < P; p++) m = fmax(m, lse_part[(p * B + b) * H + h]);
            for (int p = 0; p < P; p++) {
                double x = lse_part[(p * B + b) * H + h];
                if (isinf(x)) continue;
                n++;
                s += exp(x - m);
                for (int c = 0; c < D; c++) acc[c] += o_part[((p * B + b) * H + h) * D + c];
            }
            for (int c = 0; c < D; c++) out[r * D + c] = n ? (float)(acc[c] / n) : 0.0f;
            lse[r] = n ? (float)(m + log(s)) : -INFINITY;
        }
}
