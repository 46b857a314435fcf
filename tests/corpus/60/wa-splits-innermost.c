/* expect: WA */
/* Reads the inputs as if the split were the innermost row index ([B, H, P, D] and [B, H, P]): the right formula on the wrong elements. */
#include <math.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    for (int r = 0; r < B * H; r++) {
        float m = -INFINITY, s = 0.0f;
        for (int p = 0; p < P; p++) m = fmaxf(m, lse_part[r * P + p]);
        for (int c = 0; c < D; c++) out[r * D + c] = 0.0f;
        if (m == -INFINITY) { lse[r] = -INFINITY; continue; }
        for (int p = 0; p < P; p++) s += expf(lse_part[r * P + p] - m);
        for (int p = 0; p < P; p++)
            if (lse_part[r * P + p] != -INFINITY)
                for (int c = 0; c < D; c++)
                    out[r * D + c] += expf(lse_part[r * P + p] - m) / s * o_part[(r * P + p) * D + c];
        lse[r] = m + logf(s);
    }
}
