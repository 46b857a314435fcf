/* expect: WA outputs_averaged */
/* The outputs are averaged over all P splits (empty ones count as zeros); the lse is merged correctly. */
#include <math.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    int rows = B * H;
    for (int r = 0; r < rows; r++) {
        float m = -INFINITY, s = 0.0f;
        for (int p = 0; p < P; p++) if (lse_part[p * rows + r] > m) m = lse_part[p * rows + r];
        for (int p = 0; p < P && m > -INFINITY; p++) s += expf(lse_part[p * rows + r] - m);
        lse[r] = m == -INFINITY ? -INFINITY : m + logf(s);
        for (int c = 0; c < D; c++) {
            float acc = 0.0f;
            for (int p = 0; p < P; p++) acc += o_part[(p * rows + r) * D + c];
            out[r * D + c] = acc / P;
        }
    }
}
