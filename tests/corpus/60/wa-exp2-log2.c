/* expect: WA log_base_two */
/* The exp2 trick of FlashInfer applied to a natural lse: weights 2^(lse_p - m) and lse = m + log2(sum). */
#include <math.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    int rows = B * H;
    for (int r = 0; r < rows; r++) {
        float m = -INFINITY, s = 0.0f;
        for (int p = 0; p < P; p++) if (lse_part[p * rows + r] > m) m = lse_part[p * rows + r];
        for (int c = 0; c < D; c++) out[r * D + c] = 0.0f;
        if (m == -INFINITY) { lse[r] = -INFINITY; continue; }
        for (int p = 0; p < P; p++) s += exp2f(lse_part[p * rows + r] - m);
        for (int p = 0; p < P; p++) {
            float w = exp2f(lse_part[p * rows + r] - m) / s;
            for (int c = 0; c < D; c++) out[r * D + c] += w * o_part[(p * rows + r) * D + c];
        }
        lse[r] = m + log2f(s);
    }
}
