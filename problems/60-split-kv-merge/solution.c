/* Exercise 60, a reference solution: for each (batch, head) row, the max of
 * the splits' log-sum-exps, the sum of exp(lse_p - max), the merged lse, and
 * the outputs weighted by their shares; empty splits (lse -inf) skipped. */
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
        if (m == -INFINITY) {   /* no split saw a key */
            for (int c = 0; c < D; c++) o[c] = 0.0f;
            lse[r] = -INFINITY;
            continue;
        }
        float sum = 0.0f;
        for (int p = 0; p < P; p++) sum += expf(lse_part[p * rows + r] - m);
        for (int c = 0; c < D; c++) o[c] = 0.0f;
        for (int p = 0; p < P; p++) {
            float x = lse_part[p * rows + r];
            if (x == -INFINITY) continue;
            float w = expf(x - m) / sum;
            for (int c = 0; c < D; c++) o[c] += w * o_part[(p * rows + r) * D + c];
        }
        lse[r] = m + logf(sum);
    }
}
