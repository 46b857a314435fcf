/* expect: WA not_normalized */
/* Online merge, guarded, that forgets the final division of the accumulator by l. */
#include <math.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            float *o = out + (b * H + h) * D, m = -INFINITY, l = 0.0f;
            for (int c = 0; c < D; c++) o[c] = 0.0f;
            for (int p = 0; p < P; p++) {
                float x = lse_part[(p * B + b) * H + h];
                if (isinf(x)) continue;
                float m2 = x > m ? x : m, a = expf(m - m2), w = expf(x - m2);
                for (int c = 0; c < D; c++) o[c] = a * o[c] + w * o_part[((p * B + b) * H + h) * D + c];
                l = a * l + w;
                m = m2;
            }
            lse[b * H + h] = l > 0.0f ? m + logf(l) : -INFINITY;
        }
}
