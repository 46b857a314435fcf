/* expect: AC */
/* Online softmax: one pass keeps a running max m and a running sum l,
 * rescaling l whenever m grows; a second pass writes exp(x - m) / l. */
#include <math.h>

void softmax(float *out, const float *x, int rows, int n)
{
    for (int r = 0; r < rows; r++) {
        float m = -INFINITY, l = 0.0f;
        for (int j = 0; j < n; j++) {
            float v = x[r * n + j];
            if (v == -INFINITY) continue;
            if (v > m) {
                l = l * expf(m - v) + 1.0f;
                m = v;
            } else {
                l += expf(v - m);
            }
        }
        for (int j = 0; j < n; j++)
            out[r * n + j] = l > 0.0f ? expf(x[r * n + j] - m) / l : 0.0f;
    }
}
