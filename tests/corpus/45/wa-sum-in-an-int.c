/* expect: WA sum_truncated_to_int */
/* The denominator is declared int, so every exp term below 1 is truncated to 0 when added. */
#include <math.h>

void softmax(float *out, const float *x, int rows, int n)
{
    for (int r = 0; r < rows; r++) {
        float max = -INFINITY;
        int sum = 0;
        for (int j = 0; j < n; j++)
            if (x[r * n + j] > max) max = x[r * n + j];
        if (max == -INFINITY) {
            for (int j = 0; j < n; j++) out[r * n + j] = 0.0f;
            continue;
        }
        for (int j = 0; j < n; j++) {
            out[r * n + j] = expf(x[r * n + j] - max);
            sum += out[r * n + j];
        }
        for (int j = 0; j < n; j++)
            out[r * n + j] /= sum;
    }
}
