/* expect: WA max_skips_last */
/* The max compares neighbours x[j-1] for j = 1 .. n-1, so the last value is never a candidate. */
#include <math.h>

void softmax(float *out, const float *x, int rows, int n)
{
    for (int r = 0; r < rows; r++) {
        const float *row = &x[r * n];
        float m = -INFINITY;
        for (int j = 1; j < n; j++)
            m = fmaxf(m, row[j - 1]);
        if (isinf(m) && m < 0) {
            for (int j = 0; j < n; j++) out[r * n + j] = 0;
            continue;
        }
        double s = 0;
        for (int j = 0; j < n; j++) s += expf(row[j] - m);
        for (int j = 0; j < n; j++) out[r * n + j] = (float)(expf(row[j] - m) / s);
    }
}
