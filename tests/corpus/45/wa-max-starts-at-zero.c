/* expect: WA max_starts_at_zero */
/* Subtracts the max, but the max starts at 0: fine while some entry is
 * positive, 0/0 for a row far below zero. */
#include <math.h>

void softmax(float *out, const float *x, int rows, int n)
{
    for (int r = 0; r < rows; r++) {
        float max = 0.0f, sum = 0.0f;
        for (int j = 0; j < n; j++)
            if (x[r * n + j] > max) max = x[r * n + j];
        for (int j = 0; j < n; j++) {
            out[r * n + j] = expf(x[r * n + j] - max);
            sum += out[r * n + j];
        }
        for (int j = 0; j < n; j++) out[r * n + j] /= sum;
    }
}
