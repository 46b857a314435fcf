/* expect: WA state_kept_between_calls */
/* "Optimised": remembers the last shape and its answer in a static buffer and
 * returns that answer again when the same shape comes back, whatever x holds. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

static float *memo;
static int memo_rows = -1, memo_n = -1;

void softmax(float *out, const float *x, int rows, int n)
{
    size_t bytes = sizeof(float) * (size_t)rows * n;
    if (memo && rows == memo_rows && n == memo_n) {
        memcpy(out, memo, bytes);
        return;
    }
    for (int r = 0; r < rows; r++) {
        float max = -INFINITY, sum = 0.0f;
        for (int j = 0; j < n; j++) if (x[r * n + j] > max) max = x[r * n + j];
        for (int j = 0; j < n; j++) {
            out[r * n + j] = max == -INFINITY ? 0.0f : expf(x[r * n + j] - max);
            sum += out[r * n + j];
        }
        for (int j = 0; j < n; j++) if (sum > 0.0f) out[r * n + j] /= sum;
    }
    free(memo);
    memo = malloc(bytes);
    memcpy(memo, out, bytes);
    memo_rows = rows;
    memo_n = n;
}
