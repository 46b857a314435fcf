/* expect: WA lse_is_sum */
/* Online merge that is right for the output but adds up the lse of the splits that have keys. */
#include <math.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    int rows = B * H;
    for (int r = 0; r < rows; r++) {
        float m = -INFINITY, l = 0.0f, sum = 0.0f, acc[32];
        for (int c = 0; c < D; c++) acc[c] = 0.0f;
        for (int p = 0; p < P; p++) {
            float x = lse_part[p * rows + r];
            if (x == -INFINITY) continue;
            sum += x;
            float m2 = fmaxf(m, x), a = expf(m - m2), w = expf(x - m2);
            l = l * a + w;
            for (int c = 0; c < D; c++) acc[c] = acc[c] * a + w * o_part[(p * rows + r) * D + c];
            m = m2;
        }
        for (int c = 0; c < D; c++) out[r * D + c] = l > 0 ? acc[c] / l : 0.0f;
        lse[r] = l > 0 ? sum : -INFINITY;
    }
}
