/* expect: WA empty_split_nan */
/* Online merge without a guard: when the first split is empty the rescale exp(m - m') is exp(-inf - -inf) = NaN, and the row stays NaN. */
#include <math.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    int rows = B * H;
    for (int r = 0; r < rows; r++) {
        float m = -INFINITY, l = 0.0f, *o = out + r * D;
        for (int c = 0; c < D; c++) o[c] = 0.0f;
        for (int p = 0; p < P; p++) {
            float x = lse_part[p * rows + r], mn = fmaxf(m, x);
            float a = expf(m - mn), w = expf(x - mn);
            for (int c = 0; c < D; c++) o[c] = o[c] * a + w * o_part[(p * rows + r) * D + c];
            l = l * a + w;
            m = mn;
        }
        for (int c = 0; c < D; c++) o[c] /= l;
        lse[r] = m + logf(l);
    }
}
