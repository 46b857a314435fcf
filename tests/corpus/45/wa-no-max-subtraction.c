/* expect: WA no_max_subtraction */
/* The textbook formula taken literally: exp(x) / sum exp(x). Large values
 * overflow to inf/inf; a row of -inf is 0/0. */
#include <math.h>

void softmax(float *out, const float *x, int rows, int n)
{
    for (int r = 0; r < rows; r++) {
        float sum = 0.0f;
        for (int j = 0; j < n; j++) sum += expf(x[r * n + j]);
        for (int j = 0; j < n; j++) out[r * n + j] = expf(x[r * n + j]) / sum;
    }
}
