/* expect: WA nan_empty_row */
/* Online softmax that skips -inf entries while summing, but divides without
 * a guard: an all-masked row gives expf(-inf - -inf) / 0 = NaN. */
#include <math.h>

void softmax(float *out, const float *x, int rows, int n)
{
    for (int r = 0; r < rows; r++) {
        const float *row = &x[r * n];
        float m = -INFINITY, l = 0.0f;
        for (int j = 0; j < n; j++) {
            if (row[j] == -INFINITY) continue;
            float m2 = fmaxf(m, row[j]);
            l = l * expf(m - m2) + expf(row[j] - m2);
            m = m2;
        }
        for (int j = 0; j < n; j++) out[r * n + j] = expf(row[j] - m) / l;
    }
}
