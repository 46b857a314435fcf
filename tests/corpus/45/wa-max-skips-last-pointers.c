/* expect: WA max_skips_last */
/* The max loop stops one short (p < end - 1), in pointer style. */
#include <math.h>
#include <stddef.h>

#define ROW(p, r, n) ((p) + (size_t)(r) * (n))

void softmax(float *out, const float *x, int rows, int n)
{
    for (int r = 0; r < rows; r++) {
        const float *src = ROW(x, r, n), *end = src + n;
        float *dst = ROW(out, r, n);
        float mx = -INFINITY;
        for (const float *p = src; p < end - 1; p++)
            if (*p > mx) mx = *p;
        if (mx == -INFINITY) {
            for (float *d = dst; d < dst + n; d++) *d = 0.0f;
            continue;
        }
        float sum = 0.0f;
        float *d = dst;
        for (const float *p = src; p < end; p++, d++) {
            *d = expf(*p - mx);
            sum += *d;
        }
        for (d = dst; d < dst + n; d++) *d /= sum;
    }
}
