/* expect: AC */
/* The statement's three passes, float throughout (problems/45 solution, restated). */
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
