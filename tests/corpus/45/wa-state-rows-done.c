/* expect: WA state_kept_between_calls */
/* Keeps a static table of finished rows: a row index already computed for
 * this width is copied from the table instead of being recomputed. */
#include <math.h>
#include <string.h>

#define MAX_ROWS 65
#define MAX_N 1025

static float done_row[MAX_ROWS][MAX_N];
static int done_width[MAX_ROWS];     /* 0: not computed yet */

void softmax(float *out, const float *x, int rows, int n)
{
    for (int r = 0; r < rows; r++) {
        float *y = out + r * n;
        if (done_width[r] == n) {
            memcpy(y, done_row[r], sizeof(float) * n);
            continue;
        }
        float max = -INFINITY, sum = 0.0f;
        for (int j = 0; j < n; j++) max = fmaxf(max, x[r * n + j]);
        for (int j = 0; j < n; j++) sum += y[j] = max == -INFINITY ? 0.0f : expf(x[r * n + j] - max);
        for (int j = 0; j < n; j++) y[j] = sum > 0.0f ? y[j] / sum : 0.0f;
        memcpy(done_row[r], y, sizeof(float) * n);
        done_width[r] = n;
    }
}
