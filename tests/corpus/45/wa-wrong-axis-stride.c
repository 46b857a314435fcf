/* expect: WA wrong_axis */
/* Walks each column with a pointer stepping by n (a stride-n "row"): the
 * stable softmax is right, but it runs down the columns. */
#include <math.h>

void softmax(float *out, const float *x, int rows, int n)
{
    for (int c = 0; c < n; c++) {
        const float *p = x + c;
        float *o = out + c;
        float m = -INFINITY, s = 0.0f;
        for (int r = 0; r < rows; r++) m = p[r * n] > m ? p[r * n] : m;
        for (int r = 0; r < rows; r++) {
            o[r * n] = m == -INFINITY ? 0.0f : expf(p[r * n] - m);
            s += o[r * n];
        }
        for (int r = 0; r < rows; r++) o[r * n] = s > 0.0f ? o[r * n] / s : 0.0f;
    }
}
