/* expect: WA */
/* Stable and guarded, but the sum loop stops one short (j < n - 1): every
 * row is divided by a sum that misses its last term. */
#include <math.h>

void softmax(float *out, const float *x, int rows, int n)
{
    for (int r = 0; r < rows; r++) {
        float max = -INFINITY, sum = 0.0f;
        for (int j = 0; j < n; j++) if (x[r * n + j] > max) max = x[r * n + j];
        for (int j = 0; j < n; j++)
            out[r * n + j] = max == -INFINITY ? 0.0f : expf(x[r * n + j] - max);
        for (int j = 0; j < n - 1; j++) sum += out[r * n + j];
        for (int j = 0; j < n; j++) out[r * n + j] = sum > 0.0f ? out[r * n + j] / sum : 0.0f;
    }
}
