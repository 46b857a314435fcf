/* expect: WA split_axis_inner */
/* Reads o_part as [B, H, P, D] (split index innermost before D) instead of the split-first [P, B, H, D] layout. */
#include <math.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    int rows = B * H;
    for (int r = 0; r < rows; r++) {
        float m = -INFINITY;
        for (int p = 0; p < P; p++)
            if (lse_part[p * rows + r] > m) m = lse_part[p * rows + r];
        float *o = out + r * D;
        for (int c = 0; c < D; c++) o[c] = 0.0f;
        if (m == -INFINITY) { lse[r] = -INFINITY; continue; }
        float sum = 0.0f;
        for (int p = 0; p < P; p++) sum += expf(lse_part[p * rows + r] - m);
        for (int p = 0; p < P; p++) {
            float x = lse_part[p * rows + r];
            if (x == -INFINITY) continue;
            float w = expf(x - m) / sum;
            for (int c = 0; c < D; c++) o[c] += w * o_part[(r * P + p) * D + c];
        }
        lse[r] = m + logf(sum);
    }
}
