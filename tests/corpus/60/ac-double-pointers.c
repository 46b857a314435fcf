/* expect: AC */
/* Double precision throughout, walking the splits with pointers and a stride of one split (B*H rows); isinf() guards. */
#include <math.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    const long rows = (long)B * H;
    for (long r = 0; r < rows; r++, out += D) {
        const float *lp = lse_part + r;
        double m = -INFINITY;
        for (int p = 0; p < P; p++, lp += rows)
            if (!isinf(*lp) && *lp > m) m = *lp;
        if (isinf(m)) {
            for (int c = 0; c < D; c++) out[c] = 0.0f;
            lse[r] = -INFINITY;
            continue;
        }
        double sum = 0.0, acc[64] = { 0 };
        const float *op = o_part + r * D;
        lp = lse_part + r;
        for (int p = 0; p < P; p++, lp += rows, op += rows * D) {
            if (isinf(*lp)) continue;
            double w = exp(*lp - m);
            sum += w;
            for (int c = 0; c < D; c++) acc[c] += w * op[c];
        }
        for (int c = 0; c < D; c++) out[c] = (float)(acc[c] / sum);
        lse[r] = (float)(m + log(sum));
    }
}
