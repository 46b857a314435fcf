/* expect: WA no_max_subtraction */
/* Skips masked entries and sums in double, but never subtracts the max: the
 * float expf of a large value is already inf before it reaches the sum. */
#include <math.h>

static double row_total(const float *row, int n)
{
    double total = 0.0;
    for (int j = 0; j < n; j++)
        if (row[j] != -INFINITY) total += expf(row[j]);
    return total;
}

void softmax(float *out, const float *x, int rows, int n)
{
    for (int r = 0; r < rows; r++) {
        const float *row = x + r * n;
        double total = row_total(row, n);
        for (int j = 0; j < n; j++)
            out[r * n + j] = row[j] == -INFINITY ? 0.0f : (float)(expf(row[j]) / total);
    }
}
