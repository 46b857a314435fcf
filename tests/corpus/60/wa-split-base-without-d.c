/* expect: WA split_offset_missing_d */
/* Each split gets a base pointer into o_part, p*B*H: right for lse_part,
 * but o_part holds D floats per row, so split p should start at p*B*H*D.
 * An online merge, one split at a time. */
#include <math.h>
#include <stddef.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    const size_t rows = (size_t)B * H;
    for (size_t r = 0; r < rows; r++) {
        float *o = out + r * D;
        float m = -INFINITY, l = 0.0f;
        for (int c = 0; c < D; c++) o[c] = 0.0f;
        for (int p = 0; p < P; p++) {
            const float *lp = lse_part + (size_t)p * rows;
            const float *op = o_part + (size_t)p * rows;      /* should be p * rows * D */
            float x = lp[r];
            if (x == -INFINITY) continue;
            float m2 = x > m ? x : m, a = expf(m - m2), e = expf(x - m2);
            l = l * a + e;
            for (int c = 0; c < D; c++) o[c] = o[c] * a + e * op[r * D + c];
            m = m2;
        }
        for (int c = 0; c < D && l > 0.0f; c++) o[c] /= l;
        lse[r] = l > 0.0f ? m + logf(l) : -INFINITY;
    }
}
