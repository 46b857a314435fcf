/* expect: AC */
/* The system's clock call with its result pointer out of bounds: natively the
 * clock_gettime system call itself (not the vDSO, which would fault in user
 * space), in wasm WASI's clock_time_get and clock_res_get imported directly.
 * Both give EFAULT and the program goes on to a right answer. */
#include <math.h>
#include <stdint.h>
#ifdef __wasm__
__attribute__((import_module("wasi_snapshot_preview1"), import_name("clock_time_get")))
int wasi_clock_time_get(int id, uint64_t precision, uint32_t out);
__attribute__((import_module("wasi_snapshot_preview1"), import_name("clock_res_get")))
int wasi_clock_res_get(int id, uint32_t out);
static int bad_clock(void)
{
    return wasi_clock_time_get(1, 1, 0xfffffffcu) != 0 && wasi_clock_res_get(1, 0xfffffff9u) != 0;
}
#else
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
static int bad_clock(void)
{
    return syscall(SYS_clock_gettime, CLOCK_MONOTONIC, (void *)(uintptr_t)-4) == -1;
}
#endif

static void hostile(void)
{
    if (!bad_clock()) __builtin_trap();
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
