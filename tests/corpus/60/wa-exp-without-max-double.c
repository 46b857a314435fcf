/* expect: WA exp_without_max */
/* In double, exp(lse_p) without the max: fine up to 709, inf / inf past it. */
#include <math.h>
#include <stdlib.h>

void merge_splits(float *out, float *lse, const float *o_part, const float *lse_part,
                  int P, int B, int H, int D)
{
    int rows = B * H;
    double *w = malloc(sizeof(double) * P);
    for (int r = 0; r < rows; r++) {
        double s = 0;
        for (int p = 0; p < P; p++) s += (w[p] = exp((double)lse_part[p * rows + r]));
        for (int c = 0; c < D; c++) {
            double acc = 0;
            for (int p = 0; p < P; p++) if (w[p] > 0) acc += w[p] * o_part[(p * rows + r) * D + c];
            out[r * D + c] = s == 0 ? 0.0f : (float)(acc / s);
        }
        lse[r] = (float)log(s);
    }
    free(w);
}
