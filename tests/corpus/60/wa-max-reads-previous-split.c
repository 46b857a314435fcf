/* expect: WA max_skips_last */
/* The max loop runs p = 1 .. P-1 but reads split p - 1: the last split is
 * never looked at, and with P = 1 the loop never runs. Sums in double. */
#include <math.h>
#include <string.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    const int rows = B * H;
    for (int r = 0; r < rows; r++) {
        float m = -INFINITY;
        for (int p = 1; p < P; p++)
            m = fmaxf(m, lse_part[(p - 1) * rows + r]);
        memset(out + (size_t)r * D, 0, sizeof(float) * D);
        if (m == -INFINITY) {
            lse[r] = -INFINITY;
            continue;
        }
        double total = 0.0;
        for (int p = 0; p < P; p++) total += expf(lse_part[p * rows + r] - m);
        for (int p = 0; p < P; p++) {
            float w = (float)(expf(lse_part[p * rows + r] - m) / total);
            if (w == 0.0f) continue;
            for (int c = 0; c < D; c++) out[(size_t)r * D + c] += w * o_part[((size_t)p * rows + r) * D + c];
        }
        lse[r] = m + logf((float)total);
    }
}
