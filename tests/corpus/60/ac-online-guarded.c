/* expect: AC */
/* One pass per row, online: a running max, sum and accumulator rescaled when the max grows; an empty split is skipped before any exp. */
#include <math.h>
#include <stdlib.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    float *acc = malloc(sizeof(float) * D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            int r = b * H + h;
            float m = -INFINITY, l = 0.0f;
            for (int c = 0; c < D; c++) acc[c] = 0.0f;
            for (int p = 0; p < P; p++) {
                float x = lse_part[(p * B + b) * H + h];
                if (x == -INFINITY) continue;
                float m2 = x > m ? x : m;
                float corr = expf(m - m2), w = expf(x - m2);
                const float *o = o_part + ((size_t)(p * B + b) * H + h) * D;
                l = l * corr + w;
                for (int c = 0; c < D; c++) acc[c] = acc[c] * corr + w * o[c];
                m = m2;
            }
            for (int c = 0; c < D; c++) out[r * D + c] = l > 0.0f ? acc[c] / l : 0.0f;
            lse[r] = l > 0.0f ? m + logf(l) : -INFINITY;
        }
    free(acc);
}
