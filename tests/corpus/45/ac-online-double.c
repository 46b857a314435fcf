/* expect: AC */
/* Online softmax in double: the running max and the running sum are updated
 * together for every entry, -inf entries included (they add exp(-inf) = 0). */
#include <math.h>

void softmax(float *out, const float *x, int rows, int n)
{
    for (int r = 0; r < rows; r++) {
        const float *row = x + (long)r * n;
        double m = -INFINITY, l = 0.0;
        for (int j = 0; j < n; j++) {
            double v = row[j];
            double m_new = v > m ? v : m;
            if (m_new == -INFINITY) continue;       /* nothing finite yet */
            l = l * exp(m - m_new) + exp(v - m_new);
            m = m_new;
        }
        for (int j = 0; j < n; j++)
            out[(long)r * n + j] = m == -INFINITY ? 0.0f : (float)(exp(row[j] - m) / l);
    }
}
