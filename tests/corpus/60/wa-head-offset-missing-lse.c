/* expect: WA head_offset_missing */
/* Two passes per (b, h), pointers into each split's block; the lse of split
 * p is read at its batch's row without the head, so every head weighs its
 * splits by head 0's log-sum-exps. */
#include <math.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            float m = -INFINITY, sum = 0.0f;
            for (int p = 0; p < P; p++) {
                float x = lse_part[(p * B + b) * H];
                if (x > m) m = x;
            }
            float *o = out + (b * H + h) * D;
            for (int c = 0; c < D; c++) o[c] = 0.0f;
            if (m == -INFINITY) {
                lse[b * H + h] = -INFINITY;
                continue;
            }
            for (int p = 0; p < P; p++) {
                float w = expf(lse_part[(p * B + b) * H] - m);
                const float *op = o_part + ((p * B + b) * H + h) * D;
                sum += w;
                for (int c = 0; c < D; c++) o[c] += w * op[c];
            }
            for (int c = 0; c < D; c++) o[c] /= sum;
            lse[b * H + h] = m + logf(sum);
        }
}
