/* expect: WA largest_split_only */
/* Takes the output of the split with the largest lse only (argmax) instead of a weighted blend of all splits. */
#include <math.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    int rows = B * H;
    for (int r = 0; r < rows; r++) {
        int best = -1;
        float m = -INFINITY;
        for (int p = 0; p < P; p++)
            if (lse_part[p * rows + r] > m) { m = lse_part[p * rows + r]; best = p; }
        if (best < 0) {
            for (int c = 0; c < D; c++) out[r * D + c] = 0.0f;
            lse[r] = -INFINITY;
            continue;
        }
        float sum = 0.0f;
        for (int p = 0; p < P; p++) sum += expf(lse_part[p * rows + r] - m);
        for (int c = 0; c < D; c++) out[r * D + c] = o_part[(best * rows + r) * D + c];
        lse[r] = m + logf(sum);
    }
}
