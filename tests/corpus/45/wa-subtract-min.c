/* expect: WA min_subtracted */
/* Shifts each row by its smallest finite value, not its largest. */
#include <math.h>

void softmax(float *out, const float *x, int rows, int n)
{
    for (int r = 0; r < rows; r++) {
        const float *xr = x + r * n;
        float *yr = out + r * n;
        float lo = INFINITY;
        for (int j = 0; j < n; j++)
            if (xr[j] != -INFINITY && xr[j] < lo) lo = xr[j];
        if (lo == INFINITY) {           /* nothing finite in the row */
            for (int j = 0; j < n; j++) yr[j] = 0.0f;
            continue;
        }
        float sum = 0.0f;
        for (int j = 0; j < n; j++) {
            yr[j] = expf(xr[j] - lo);
            sum += yr[j];
        }
        for (int j = 0; j < n; j++) yr[j] /= sum;
    }
}
