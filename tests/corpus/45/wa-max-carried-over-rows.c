/* expect: WA max_not_per_row */
/* The running maximum is initialised once before the row loop, so it carries over between rows instead of being each row's own max. */
#include <math.h>

void softmax(float *out, const float *x, int rows, int n)
{
    float max = -INFINITY;
    for (int r = 0; r < rows; r++) {
        for (int j = 0; j < n; j++)
            if (x[r * n + j] > max) max = x[r * n + j];
        if (max == -INFINITY) {
            for (int j = 0; j < n; j++) out[r * n + j] = 0.0f;
            continue;
        }
        float sum = 0.0f;
        for (int j = 0; j < n; j++) {
            out[r * n + j] = expf(x[r * n + j] - max);
            sum += out[r * n + j];
        }
        for (int j = 0; j < n; j++)
            out[r * n + j] /= sum;
    }
}
