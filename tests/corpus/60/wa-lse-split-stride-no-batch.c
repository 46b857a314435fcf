/* expect: WA split_offset_missing_b */
/* Online over the splits (running max, rescaled sum and output); lse_part's split stride written H, as if B were 1. */
#include <math.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    const int rows = B * H;
    for (int r = 0; r < rows; r++) {
        float *o = out + (long)r * D;
        float m = -INFINITY, l = 0.0f;
        for (int c = 0; c < D; c++) o[c] = 0.0f;
        for (int p = 0; p < P; p++) {
            float x = lse_part[p * H + r];
            if (x == -INFINITY) continue;   /* an empty split */
            float m2 = x > m ? x : m, a = expf(m - m2), w = expf(x - m2);
            const float *op = o_part + ((long)p * rows + r) * D;
            for (int c = 0; c < D; c++) o[c] = o[c] * a + w * op[c];
            l = l * a + w;
            m = m2;
        }
        if (l == 0.0f) { lse[r] = -INFINITY; continue; }
        for (int c = 0; c < D; c++) o[c] /= l;
        lse[r] = m + logf(l);
    }
}
