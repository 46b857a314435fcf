/* expect: WA nan_empty_row */
/* Stable, but a row of all -inf gives -inf - (-inf) = NaN. */
#include <math.h>

void softmax(float *out, const float *x, int rows, int n)
{
    for (int r = 0; r < rows; r++) {
        float max = -INFINITY, sum = 0.0f;
        for (int j = 0; j < n; j++) max = fmaxf(max, x[r * n + j]);
        for (int j = 0; j < n; j++) {
            out[r * n + j] = expf(x[r * n + j] - max);
            sum += out[r * n + j];
        }
        for (int j = 0; j < n; j++) out[r * n + j] /= sum;
    }
}
