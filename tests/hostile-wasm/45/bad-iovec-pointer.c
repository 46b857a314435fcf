/* expect: AC */
/* writev() with an iovec array at the top of the address space (the last 16
 * bytes: in wasm32 past the memory's end, its second iovec wrapping past 2^32).
 * Natively EFAULT; the host must say the same, not crash. Then a right answer. */
#include <math.h>
#include <stdint.h>
#include <sys/uio.h>

static void hostile(void)
{
    if (writev(1, (const struct iovec *)(uintptr_t)-16, 2) != -1) __builtin_trap();
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
