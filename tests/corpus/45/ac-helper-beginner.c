/* expect: AC */
/* Beginner style: helper functions for the max and for one row, exp() from
 * double math, and "if the sum is zero the row was all masked". */
#include <math.h>

float row_max(const float *row, int n)
{
    float best = row[0];
    int i;
    for (i = 1; i < n; i++) {
        if (row[i] > best) {
            best = row[i];
        }
    }
    return best;
}

void softmax_one_row(float *dest, const float *row, int n)
{
    float best = row_max(row, n);
    float total = 0;
    int i;
    for (i = 0; i < n; i++) {
        if (row[i] == -INFINITY) {
            dest[i] = 0;
        } else {
            dest[i] = (float)exp(row[i] - best);
        }
        total = total + dest[i];
    }
    for (i = 0; i < n; i++) {
        if (total == 0) {
            dest[i] = 0;
        } else {
            dest[i] = dest[i] / total;
        }
    }
}

void softmax(float *out, const float *x, int rows, int n)
{
    int r;
    for (r = 0; r < rows; r++) {
        softmax_one_row(&out[r * n], &x[r * n], n);
    }
}
