/* expect: WA empty_split_as_zero */
/* Online merge that "sanitises" non-finite inputs: isfinite(x) ? x : 0.0, in double. */
#include <math.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    for (int r = 0; r < B * H; r++) {
        double m = -INFINITY, l = 0, acc[32] = { 0 };
        for (int p = 0; p < P; p++) {
            double x = lse_part[p * B * H + r];
            if (!isfinite(x)) x = 0.0;
            double m2 = x > m ? x : m, a = exp(m - m2), w = exp(x - m2);
            l = l * a + w;
            for (int c = 0; c < D; c++) acc[c] = acc[c] * a + w * o_part[(p * B * H + r) * D + c];
            m = m2;
        }
        for (int c = 0; c < D; c++) out[r * D + c] = (float)(acc[c] / l);
        lse[r] = (float)(m + log(l));
    }
}
