/* expect: WA lse_is_max */
/* lse taken as the max of the splits' lse, and the weights exp(lse_p - lse) computed from that lse, so they do not sum to 1 either. */
#include <math.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    int rows = B * H;
    for (int r = 0; r < rows; r++) {
        float L = -INFINITY;
        for (int p = 0; p < P; p++) if (lse_part[p * rows + r] > L) L = lse_part[p * rows + r];
        lse[r] = L;
        for (int c = 0; c < D; c++) {
            float acc = 0.0f;
            for (int p = 0; p < P && L != -INFINITY; p++)
                if (lse_part[p * rows + r] != -INFINITY)
                    acc += expf(lse_part[p * rows + r] - L) * o_part[(p * rows + r) * D + c];
            out[r * D + c] = acc;
        }
    }
}
