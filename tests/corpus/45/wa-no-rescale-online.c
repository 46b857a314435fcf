/* expect: WA no_rescale */
/* One online pass for the max and the sum (masked entries skipped), then the outputs; the sum is never multiplied by exp(m_old - m_new) when the max grows. */
#include <math.h>

void softmax(float *out, const float *x, int rows, int n)
{
    for (int r = 0; r < rows; r++) {
        const float *row = x + (long)r * n;
        float m = -INFINITY, l = 0.0f;
        for (int j = 0; j < n; j++) {
            if (row[j] == -INFINITY) continue;
            if (row[j] > m) m = row[j];
            l += expf(row[j] - m);
        }
        for (int j = 0; j < n; j++)
            out[(long)r * n + j] = m == -INFINITY ? 0.0f : expf(row[j] - m) / l;
    }
}
