/* expect: WA min_subtracted */
/* "Shift so every exponent is >= 0": the row's least finite value comes off, in double. */
#include <math.h>

static float least_finite(const float *v, int n)
{
    float lo = INFINITY;
    for (int i = 0; i < n; i++)
        if (isfinite(v[i]) && v[i] < lo) lo = v[i];
    return lo;
}

void softmax(float *out, const float *x, int rows, int n)
{
    for (int r = 0; r < rows; r++) {
        const float *v = x + (long)r * n;
        float *y = out + (long)r * n;
        float lo = least_finite(v, n);
        if (lo == INFINITY) {
            for (int i = 0; i < n; i++) y[i] = 0.0f;
            continue;
        }
        float sum = 0.0f;
        for (int i = 0; i < n; i++) sum += (y[i] = expf(v[i] - lo));
        for (int i = 0; i < n; i++) y[i] = y[i] / sum;
    }
}
