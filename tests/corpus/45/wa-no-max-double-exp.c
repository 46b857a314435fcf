/* expect: WA no_max_subtraction */
/* Relies on double precision exp() instead of subtracting the row max, so exp still overflows/underflows for large or far-negative rows. */
#include <math.h>

/* 用 double 计算，应该就不会溢出了 */
void softmax(float *out, const float *x, int rows, int n)
{
    int i, j;
    for (i = 0; i < rows; i++) {
        double total = 0.0;
        for (j = 0; j < n; j++)
            total += exp((double)x[i * n + j]);
        if (total == 0.0) {             /* 整行 -inf */
            for (j = 0; j < n; j++) out[i * n + j] = 0.0f;
            continue;
        }
        for (j = 0; j < n; j++)
            out[i * n + j] = (float)(exp((double)x[i * n + j]) / total);
    }
}
