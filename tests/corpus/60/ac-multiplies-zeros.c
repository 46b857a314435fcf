/* expect: AC */
/* Never skips an empty split: its weight exp(-inf - m) is 0 and its o_part is zeros, so 0 * 0 adds nothing; weights kept in a malloc'd array; only the all-empty row is guarded. */
#include <math.h>
#include <stdlib.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    int rows = B * H;
    float *w = malloc(sizeof(float) * P);
    for (int r = 0; r < rows; r++) {
        float m = lse_part[r];
        for (int p = 1; p < P; p++)
            if (lse_part[p * rows + r] > m) m = lse_part[p * rows + r];
        if (m == -INFINITY) {
            lse[r] = -INFINITY;
            for (int c = 0; c < D; c++) out[r * D + c] = 0.0f;
            continue;
        }
        float total = 0.0f;
        for (int p = 0; p < P; p++) total += (w[p] = expf(lse_part[p * rows + r] - m));
        for (int p = 0; p < P; p++) w[p] /= total;
        for (int c = 0; c < D; c++) {
            float acc = 0.0f;
            for (int p = 0; p < P; p++) acc += w[p] * o_part[(p * rows + r) * D + c];
            out[r * D + c] = acc;
        }
        lse[r] = m + logf(total);
    }
    free(w);
}
