/* att_ref_merge.c: the reference merge of split-KV attention (exercise 60,
 * Flash-Decoding): partial outputs over disjoint ranges of keys, each with
 * its log-sum-exp, combined into the output over all of them. Plain loops,
 * double accumulation, the max from -INFINITY; semantics in att.h. */
#include <math.h>
#include "att.h"

att_status att_merge_lse_ref(float *out, float *lse, const float *o_part,
                             const float *lse_part, int P, int B, int H, int D)
{
    if (P <= 0 || B <= 0 || H <= 0 || D <= 0) return ATT_EBADSHAPE;
    size_t rows = (size_t)B * H;
    for (size_t r = 0; r < rows; r++) {
        double m = -INFINITY, sum = 0.0;
        for (int p = 0; p < P; p++)
            if (lse_part[(size_t)p * rows + r] > m) m = lse_part[(size_t)p * rows + r];
        float *o = out + r * D;
        if (m == -INFINITY) {   /* no split saw a key: no weights at all, not 0/0 */
            for (int c = 0; c < D; c++) o[c] = 0.0f;
            lse[r] = -INFINITY;
            continue;
        }
        for (int p = 0; p < P; p++) sum += exp(lse_part[(size_t)p * rows + r] - m);
        double total = m + log(sum);
        for (int c = 0; c < D; c++) {
            double acc = 0.0;
            for (int p = 0; p < P; p++) {
                double x = lse_part[(size_t)p * rows + r];
                /* An empty split is skipped, not multiplied: its weight is an
                 * exact 0 whatever its o_part holds. */
                if (x != -INFINITY) acc += exp(x - total) * o_part[((size_t)p * rows + r) * D + c];
            }
            o[c] = (float)acc;
        }
        lse[r] = (float)total;
    }
    return ATT_OK;
}
