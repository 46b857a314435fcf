/* expect: WA not_normalized */
/* Weights exp(lse_p - m) used as they are, never divided by their sum; the lse is right. */
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
        for (int p = 0; p < P; p++) {
            float w = expf(lse_part[p * rows + r] - m);
            s += w;
            for (int c = 0; c < D; c++) out[r * D + c] += w * o_part[(p * rows + r) * D + c];
        }
        lse[r] = m + logf(s);
    }
}
