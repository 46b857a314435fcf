/* expect: WA empty_split_nan */
/* Two passes with the max from -INFINITY but no guard: a row whose every split is empty computes exp(-inf - -inf) = NaN. */
#include <math.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    int rows = B * H;
    for (int r = 0; r < rows; r++) {
        float m = -INFINITY, s = 0.0f;
        for (int p = 0; p < P; p++) if (lse_part[p * rows + r] > m) m = lse_part[p * rows + r];
        for (int p = 0; p < P; p++) s += expf(lse_part[p * rows + r] - m);
        for (int c = 0; c < D; c++) {
            float acc = 0.0f;
            for (int p = 0; p < P; p++) acc += expf(lse_part[p * rows + r] - m) * o_part[(p * rows + r) * D + c];
            out[r * D + c] = acc / s;
        }
        lse[r] = m + logf(s);
    }
}
