/* expect: WA max_starts_at_zero */
/* Guards the empty row by its sum, but the max starts at 0.0f: a row lying
 * far below zero underflows to a zero sum and is written as zeros too. */
#include <math.h>

void softmax(float *out, const float *x, int rows, int n)
{
    for (int r = 0; r < rows; r++) {
        const float *xr = x + r * n;
        float *yr = out + r * n;
        float mx = 0.0f;
        for (int j = 0; j < n; j++) mx = fmaxf(mx, xr[j]);
        float sum = 0.0f;
        for (int j = 0; j < n; j++) sum += (yr[j] = expf(xr[j] - mx));
        if (sum == 0.0f) {                   /* all masked */
            for (int j = 0; j < n; j++) yr[j] = 0.0f;
            continue;
        }
        for (int j = 0; j < n; j++) yr[j] /= sum;
    }
}
