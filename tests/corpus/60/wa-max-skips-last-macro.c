/* expect: WA max_skips_last */
/* The max over the splits stops at P - 1; macros for the lse layout. */
#include <math.h>

#define ROWS (B * H)
#define LP(p, r) (*(lse_part + (p) * ROWS + (r)))

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    for (int r = 0; r < ROWS; r++) {
        float *o = out + r * D;
        float m = -INFINITY;
        for (int p = 0; p < P - 1; p++)
            if (LP(p, r) > m) m = LP(p, r);
        for (int c = 0; c < D; c++) o[c] = 0.0f;
        if (m == -INFINITY) { lse[r] = -INFINITY; continue; }
        float sum = 0.0f;
        for (int p = 0; p < P; p++) sum += expf(LP(p, r) - m);
        for (int p = 0; p < P; p++) {
            if (LP(p, r) == -INFINITY) continue;
            float w = expf(LP(p, r) - m) / sum;
            const float *src = o_part + (p * ROWS + r) * D;
            for (int c = 0; c < D; c++) o[c] += w * src[c];
        }
        lse[r] = m + logf(sum);
    }
}
