/* expect: WA max_not_per_row */
/* Subtracts the global maximum of the whole matrix from every row instead of each row's own maximum. */
#include <math.h>

void softmax(float *out, const float *x, int rows, int n)
{
    /* 先找最大值，保证 exp 的参数都 <= 0 */
    float m = -INFINITY;
    for (int i = 0; i < rows * n; i++)
        if (x[i] > m) m = x[i];

    for (int r = 0; r < rows; r++) {
        float *o = out + r * n;
        const float *in = x + r * n;
        if (m == -INFINITY) {
            for (int j = 0; j < n; j++) o[j] = 0.0f;
            continue;
        }
        float s = 0.0f;
        for (int j = 0; j < n; j++) {
            o[j] = expf(in[j] - m);
            s += o[j];
        }
        for (int j = 0; j < n; j++) o[j] /= s;
    }
}
