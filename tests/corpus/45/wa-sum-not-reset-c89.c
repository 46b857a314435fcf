/* expect: WA sum_not_reset */
/* C89-style declarations at the top with the double sum initialised there only, so the sum is never reset between rows. */
#include <math.h>

void softmax(float *out, const float *x, int rows, int n)
{
    int r, j;
    float m;
    double s = 0.0;
    const float *in;
    float *o;

    for (r = 0; r < rows; r++) {
        in = x + r * n;
        o = out + r * n;
        m = -INFINITY;
        for (j = 0; j < n; j++)
            if (in[j] > m) m = in[j];
        if (m == -INFINITY) {
            for (j = 0; j < n; j++) o[j] = 0.0f;
            continue;
        }
        for (j = 0; j < n; j++)
            s += exp((double)(in[j] - m));
        for (j = 0; j < n; j++)
            o[j] = (float)(exp((double)(in[j] - m)) / s);
    }
}
