/* expect: WA empty_split_as_zero */
/* Replaces a -inf lse by 0 before merging ("no keys, lse 0"), so an empty split weighs exp(0 - m). */
#include <math.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    int rows = B * H;
    float x[64];
    for (int r = 0; r < rows; r++) {
        float m = -INFINITY, s = 0.0f;
        for (int p = 0; p < P; p++) {
            x[p] = isinf(lse_part[p * rows + r]) ? 0.0f : lse_part[p * rows + r];
            if (x[p] > m) m = x[p];
        }
        for (int p = 0; p < P; p++) s += expf(x[p] - m);
        for (int c = 0; c < D; c++) {
            float acc = 0.0f;
            for (int p = 0; p < P; p++) acc += expf(x[p] - m) / s * o_part[(p * rows + r) * D + c];
            out[r * D + c] = acc;
        }
        lse[r] = m + logf(s);
    }
}
