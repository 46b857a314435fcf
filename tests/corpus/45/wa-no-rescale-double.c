/* expect: WA no_rescale */
/* Online normaliser in double with fmax; the new term is taken against the new max but the old sum is left as it was. */
#include <math.h>

void softmax(float *out, const float *x, int rows, int n)
{
    for (int r = 0; r < rows; r++) {
        double mx = -INFINITY, d = 0.0;
        for (int j = 0; j < n; j++) {
            double v = x[r * n + j];
            if (isinf(v) && v < 0) continue;
            mx = fmax(mx, v);
            d += exp(v - mx);
        }
        for (int j = 0; j < n; j++) {
            double v = x[r * n + j];
            out[r * n + j] = d > 0.0 ? (float)(exp(v - mx) / d) : 0.0f;
        }
    }
}
