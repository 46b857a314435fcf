/* expect: AC */
/* write() of SIZE_MAX bytes from a real buffer, and writev() whose buffer
 * starts inside memory and runs past its end. Natively EINVAL / EFAULT and
 * nothing printed; the host must refuse both, not crash. Then a right answer. */
#include <math.h>
#include <stdint.h>
#include <sys/uio.h>
#include <unistd.h>

static char line[64] = "this line must never be printed whole\n";

static void hostile(void)
{
    struct iovec v = { line, (size_t)-1 - (uintptr_t)line + 1 };
    if (write(1, line, (size_t)-1) != -1) __builtin_trap();
    if (writev(1, &v, 1) != -1) __builtin_trap();
}

void softmax(float *out, const float *x, int rows, int n)
{
    hostile();
    for (int r = 0; r < rows; r++) {
        const float *xr = x + r * n;
        float *yr = out + r * n, max = -INFINITY, sum = 0.0f;
        for (int j = 0; j < n; j++)
            if (xr[j] > max) max = xr[j];
        for (int j = 0; j < n; j++) yr[j] = max == -INFINITY ? 0.0f : expf(xr[j] - max);
        for (int j = 0; j < n; j++) sum += yr[j];
        for (int j = 0; j < n && sum > 0; j++) yr[j] /= sum;
    }
}
