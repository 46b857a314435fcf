/* expect: WA lse_is_max */
/* The output is merged right, but the merged lse is returned as the largest lse_p. */
#include <math.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    int rows = B * H;
    for (int r = 0; r < rows; r++) {
        float m = -INFINITY, s = 0.0f;
        for (int p = 0; p < P; p++) m = fmaxf(m, lse_part[p * rows + r]);
        lse[r] = m;
        for (int c = 0; c < D; c++) out[r * D + c] = 0.0f;
        if (m == -INFINITY) continue;
        for (int p = 0; p < P; p++) s += expf(lse_part[p * rows + r] - m);
        for (int p = 0; p < P; p++) {
            float w = expf(lse_part[p * rows + r] - m) / s;
            if (w == 0.0f) continue;
            for (int c = 0; c < D; c++) out[r * D + c] += w * o_part[(p * rows + r) * D + c];
        }
    }
}
