/* expect: WA masked_row_uniform */
/* A row of all -inf is caught, but filled with the uniform 1/n instead of zeros. */
#include <math.h>
void softmax(float *out, const float *x, int rows, int n)
{
    for (int r = 0; r < rows; r++) {
        const float *xr = x + r * n; float *yr = out + r * n;
        float m = -INFINITY;
        for (int j = 0; j < n; j++) if (xr[j] > m) m = xr[j];
        if (m == -INFINITY) { for (int j = 0; j < n; j++) yr[j] = 1.0f / n; continue; }
        float s = 0;
        for (int j = 0; j < n; j++) { yr[j] = expf(xr[j] - m); s += yr[j]; }
        for (int j = 0; j < n; j++) yr[j] /= s;
    }
}
