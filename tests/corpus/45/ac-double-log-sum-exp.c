/* expect: AC */
/* Log-sum-exp in double: out = exp(x - lse), with lse = max + log(sum exp(x - max)). */
#include <math.h>

void softmax(float *out, const float *x, int rows, int n)
{
    for (int r = 0; r < rows; r++) {
        const float *xr = &x[r * n];
        double max = -INFINITY, sum = 0.0;
        for (int j = 0; j < n; j++) max = fmax(max, xr[j]);
        for (int j = 0; j < n && max > -INFINITY; j++) sum += exp(xr[j] - max);
        double lse = max + log(sum);
        for (int j = 0; j < n; j++)
            out[r * n + j] = max == -INFINITY ? 0.0f : (float)exp(xr[j] - lse);
    }
}
