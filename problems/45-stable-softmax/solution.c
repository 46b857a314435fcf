/* Exercise 45, a reference solution: the three-pass stable softmax of the
 * chapter. Max first, so exp() never sees a positive argument; a row with
 * nothing finite in it becomes zeros. */
#include <math.h>

void softmax(float *out, const float *x, int rows, int n)
{
    for (int r = 0; r < rows; r++) {
        const float *xr = x + r * n;
        float *yr = out + r * n;
        float max = -INFINITY;
        for (int j = 0; j < n; j++)
            if (xr[j] > max) max = xr[j];
        if (max == -INFINITY) {          /* every entry masked: no distribution */
            for (int j = 0; j < n; j++) yr[j] = 0.0f;
            continue;
        }
        float sum = 0.0f;
        for (int j = 0; j < n; j++) {
            yr[j] = expf(xr[j] - max);
            sum += yr[j];
        }
        for (int j = 0; j < n; j++) yr[j] /= sum;
    }
}
