/* expect: WA wrong_axis */
/* The index macro is column-major (j * rows + r), so each "row" is gathered with stride rows from the wrong elements. */
#include <math.h>

#define AT(a, r, j) (a)[(j) * rows + (r)]

void softmax(float *out, const float *x, int rows, int n)
{
    for (int r = 0; r < rows; r++) {
        float mx = -INFINITY;
        for (int j = 0; j < n; j++)
            mx = fmaxf(mx, AT(x, r, j));
        if (mx == -INFINITY) {
            for (int j = 0; j < n; j++) AT(out, r, j) = 0.0f;
            continue;
        }
        double sum = 0.0;
        for (int j = 0; j < n; j++) {
            AT(out, r, j) = expf(AT(x, r, j) - mx);
            sum += AT(out, r, j);
        }
        for (int j = 0; j < n; j++)
            AT(out, r, j) = (float)(AT(out, r, j) / sum);
    }
}
