/* expect: AC */
/* Textbook: the max, the sum, the merged lse, then weights exp(lse_p - lse) straight from the formula, empty splits skipped. */
#include <math.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    int rows = B * H;
    for (int r = 0; r < rows; r++) {
        float m = -INFINITY, s = 0.0f;
        for (int p = 0; p < P; p++) m = fmaxf(m, lse_part[p * rows + r]);
        for (int c = 0; c < D; c++) out[r * D + c] = 0.0f;
        if (m == -INFINITY) {
            lse[r] = -INFINITY;
            continue;
        }
        for (int p = 0; p < P; p++) s += expf(lse_part[p * rows + r] - m);
        float L = m + logf(s);
        lse[r] = L;
        for (int p = 0; p < P; p++) {
            if (isinf(lse_part[p * rows + r])) continue;
            float w = expf(lse_part[p * rows + r] - L);
            for (int c = 0; c < D; c++) out[r * D + c] += w * o_part[(p * rows + r) * D + c];
        }
    }
}
