/* expect: AC */
/* getentropy() into the last bytes of the address space, its 64 bytes
 * wrapping past the end (wasm32: past the memory). Natively EFAULT; the host
 * must say the same, not crash. Then a right answer. */
#include <math.h>
#include <stdint.h>
#include <unistd.h>

static void hostile(void)
{
    (void)getentropy((void *)(uintptr_t)-32, 64);   /* natively -1, or a vDSO fault */
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
