/* expect: WA log_base_two */
/* In double: natural exp for the weights, but the merged lse written with log2 of the sum. */
#include <math.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    const int rows = B * H;
    for (int r = 0; r < rows; r++) {
        double m = -INFINITY, s = 0;
        for (int p = 0; p < P; p++) if (lse_part[p * rows + r] > m) m = lse_part[p * rows + r];
        if (m == -INFINITY) {
            for (int c = 0; c < D; c++) out[r * D + c] = 0.0f;
            lse[r] = -INFINITY;
            continue;
        }
        for (int p = 0; p < P; p++) s += exp(lse_part[p * rows + r] - m);
        for (int c = 0; c < D; c++) {
            double acc = 0;
            for (int p = 0; p < P; p++)
                if (lse_part[p * rows + r] > -INFINITY)
                    acc += exp(lse_part[p * rows + r] - m) * o_part[(p * rows + r) * D + c];
            out[r * D + c] = (float)(acc / s);
        }
        lse[r] = (float)(m + log2(s));
    }
}
