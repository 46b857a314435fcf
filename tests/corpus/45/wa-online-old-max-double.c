/* expect: WA no_rescale */
/* Online softmax in double that adds each term with the old maximum and never multiplies the sum by exp(m_old - m_new) when the max changes. */
#include <math.h>

void softmax(float *out, const float *x, int rows, int n)
{
    const float *p = x;
    float *q = out;
    for (int r = 0; r < rows; r++, p += n, q += n) {
        double m = -INFINITY;
        double l = 0.0;
        for (int j = 0; j < n; j++) {
            double v = p[j];
            if (v == -INFINITY) continue;      /* masked */
            if (m == -INFINITY) { m = v; l = 1.0; continue; }
            l += exp(v - m);
            if (v > m) m = v;
        }
        for (int j = 0; j < n; j++)
            q[j] = (m == -INFINITY) ? 0.0f : (float)(exp(p[j] - m) / l);
    }
}
