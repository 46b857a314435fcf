/* expect: AC */
/* Two passes: the max, then exp() in double written out and summed in double,
 * scaled by the reciprocal of the sum; a row with no finite entry is zeroed. */
#include <math.h>

void softmax(float *out, const float *x, int rows, int n)
{
    for (int r = 0; r < rows; r++) {
        double max = -INFINITY;
        for (int j = 0; j < n; j++)
            if (x[r * n + j] > max) max = x[r * n + j];
        if (isinf(max)) {
            for (int j = 0; j < n; j++) out[r * n + j] = 0.0f;
            continue;
        }
        double sum = 0.0;
        for (int j = 0; j < n; j++) sum += exp(x[r * n + j] - max);
        double inv = 1.0 / sum;
        for (int j = 0; j < n; j++) out[r * n + j] = (float)(exp(x[r * n + j] - max) * inv);
    }
}
