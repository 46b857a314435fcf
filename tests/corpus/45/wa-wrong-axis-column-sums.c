/* expect: WA wrong_axis */
/* Computes per-column maxima and sums in two scratch arrays, the way
 * softmax(dim = 0) would: each column is normalised instead of each row. */
#include <math.h>
#include <stdlib.h>

void softmax(float *out, const float *x, int rows, int n)
{
    float *mx = malloc(sizeof(float) * n);
    double *sum = calloc(n, sizeof(double));
    for (int j = 0; j < n; j++) mx[j] = -INFINITY;
    for (int r = 0; r < rows; r++)
        for (int j = 0; j < n; j++) mx[j] = fmaxf(mx[j], x[r * n + j]);
    for (int r = 0; r < rows; r++)
        for (int j = 0; j < n; j++)
            if (mx[j] != -INFINITY) sum[j] += expf(x[r * n + j] - mx[j]);
    for (int r = 0; r < rows; r++)
        for (int j = 0; j < n; j++)
            out[r * n + j] = sum[j] > 0 ? (float)(expf(x[r * n + j] - mx[j]) / sum[j]) : 0.0f;
    free(mx);
    free(sum);
}
