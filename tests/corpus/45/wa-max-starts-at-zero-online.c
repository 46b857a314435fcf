/* expect: WA max_starts_at_zero */
/* Online softmax whose running max is initialised to 0 rather than -inf, so
 * it only ever grows from 0; no guard for an empty row. */
#include <math.h>

void softmax(float *out, const float *x, int rows, int n)
{
    for (int r = 0; r < rows; r++) {
        float m = 0.0f, l = 0.0f;
        for (int j = 0; j < n; j++) {
            float v = x[r * n + j];
            if (v > m) {
                l = l * expf(m - v) + 1.0f;
                m = v;
            } else {
                l += expf(v - m);
            }
        }
        for (int j = 0; j < n; j++) out[r * n + j] = expf(x[r * n + j] - m) / l;
    }
}
