/* expect: WA nan_empty_row */
/* Three passes in double starting the max at -INFINITY, correct on every
 * row that has a finite entry; an all-masked row is left to compute NaN. */
#include <math.h>
#include <stdlib.h>

void softmax(float *out, const float *x, int rows, int n)
{
    double *e = malloc(sizeof(double) * n);
    for (int r = 0; r < rows; r++) {
        double max = -INFINITY, sum = 0.0;
        for (int j = 0; j < n; j++) if (x[r * n + j] > max) max = x[r * n + j];
        for (int j = 0; j < n; j++) sum += e[j] = exp((double)x[r * n + j] - max);
        for (int j = 0; j < n; j++) out[r * n + j] = (float)(e[j] / sum);
    }
    free(e);
}
