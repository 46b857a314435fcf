/* expect: WA no_max_subtraction */
/* Guards the all-masked row (sum == 0 gives zeros) but calls expf on the raw
 * values: expf(200) is inf and the row becomes inf / inf. */
#include <math.h>

void softmax(float *out, const float *x, int rows, int n)
{
    for (int r = 0; r < rows; r++) {
        float sum = 0.0f;
        for (int j = 0; j < n; j++) {
            out[r * n + j] = expf(x[r * n + j]);
            sum += out[r * n + j];
        }
        for (int j = 0; j < n; j++)
            out[r * n + j] = sum == 0.0f ? 0.0f : out[r * n + j] / sum;
    }
}
