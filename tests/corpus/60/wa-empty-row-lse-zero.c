/* expect: WA empty_row_lse_finite */
/* Two passes with the empty splits skipped; a row with no keys at all is given zeros and an lse of 0. */
#include <math.h>
#include <float.h>
#include <stddef.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            int row = b * H + h;
            float *o = out + (size_t)row * D;
            float m = -INFINITY;
            for (int p = 0; p < P; p++) {
                float L = lse_part[(size_t)p * B * H + row];
                if (L > m) m = L;
            }
            for (int c = 0; c < D; c++) o[c] = 0.0f;
            if (m == -INFINITY) { lse[row] = 0.0f; continue; }
            float sum = 0.0f;
            for (int p = 0; p < P; p++) {
                float L = lse_part[(size_t)p * B * H + row];
                if (L == -INFINITY) continue;
                float w = expf(L - m);
                sum += w;
                const float *op = o_part + ((size_t)p * B * H + row) * D;
                for (int c = 0; c < D; c++) o[c] += w * op[c];
            }
            for (int c = 0; c < D; c++) o[c] /= sum;
            lse[row] = m + logf(sum);
        }
}
