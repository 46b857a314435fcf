/* expect: WA wrong_axis */
/* Normalises each column (softmax over dim 0) instead of each row. */
#include <math.h>

void softmax(float *out, const float *x, int rows, int n)
{
    for (int j = 0; j < n; j++) {
        float max = -INFINITY, sum = 0.0f;
        for (int r = 0; r < rows; r++)
            if (x[r * n + j] > max) max = x[r * n + j];
        for (int r = 0; r < rows; r++) {
            out[r * n + j] = max == -INFINITY ? 0.0f : expf(x[r * n + j] - max);
            sum += out[r * n + j];
        }
        for (int r = 0; r < rows; r++)
            if (sum > 0.0f) out[r * n + j] /= sum;
    }
}
