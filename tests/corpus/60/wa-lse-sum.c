/* expect: WA lse_is_sum */
/* The output is right; the merged lse is lse_0 + lse_1 + ..., every split included. */
#include <math.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    int rows = B * H;
    for (int r = 0; r < rows; r++) {
        float m = -INFINITY, s = 0.0f, total = 0.0f;
        for (int p = 0; p < P; p++) {
            m = fmaxf(m, lse_part[p * rows + r]);
            total += lse_part[p * rows + r];
        }
        lse[r] = total;
        for (int c = 0; c < D; c++) out[r * D + c] = 0.0f;
        if (m == -INFINITY) continue;
        for (int p = 0; p < P; p++) s += expf(lse_part[p * rows + r] - m);
        for (int p = 0; p < P; p++)
            for (int c = 0; c < D; c++)
                out[r * D + c] += expf(lse_part[p * rows + r] - m) / s * o_part[(p * rows + r) * D + c];
    }
}
