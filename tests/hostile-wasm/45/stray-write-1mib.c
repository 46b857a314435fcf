/* expect: RE */
/* wasm cause: "wrote to address 1048576, below the stack" */
/* Writes 1 MiB of junk at address 1 MiB, which no buffer owns: natively a
 * segmentation fault; in wasm the deep end of the stack. Then a right answer,
 * so only catching the write can make this RE. */
#include <math.h>
#include <stdint.h>
#include <string.h>

static void hostile(void)
{
    memset((void *)(uintptr_t)(1 << 20), 0x5a, 1 << 20);
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
