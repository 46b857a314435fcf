/* expect: AC */
/* In wasm, every WASI function that takes a pointer, imported directly and
 * handed addresses past the memory (or wrapping past 2^32): each must answer
 * EFAULT (21), as the kernel does natively, and the run goes on to a right
 * answer. Natively there is nothing to import: the same right answer. */
#include <math.h>
#include <stdint.h>
#ifdef __wasm__
#define WASI(name) __attribute__((import_module("wasi_snapshot_preview1"), import_name(#name)))
WASI(args_sizes_get) int w_args_sizes_get(uint32_t argc, uint32_t size);
WASI(environ_sizes_get) int w_environ_sizes_get(uint32_t count, uint32_t size);
WASI(fd_write) int w_fd_write(int fd, uint32_t iovs, uint32_t n, uint32_t written);
WASI(fd_read) int w_fd_read(int fd, uint32_t iovs, uint32_t n, uint32_t read);
WASI(fd_fdstat_get) int w_fd_fdstat_get(int fd, uint32_t out);
WASI(fd_filestat_get) int w_fd_filestat_get(int fd, uint32_t out);
WASI(random_get) int w_random_get(uint32_t at, uint32_t len);
WASI(poll_oneoff) int w_poll_oneoff(uint32_t subs, uint32_t events, uint32_t n, uint32_t count);

enum { EFAULT_WASI = 21 };
static const uint32_t far = 0xfffffff0u;

static void hostile(void)
{
    static char text[] = "never printed\n";
    static uint32_t iov[2];
    iov[0] = (uint32_t)(uintptr_t)text;
    iov[1] = sizeof text - 1;
    static uint32_t ok;
    int answers[] = {
        w_args_sizes_get(far, (uint32_t)(uintptr_t)&ok),
        w_environ_sizes_get((uint32_t)(uintptr_t)&ok, far + 8),
        w_fd_write(1, far, 1, (uint32_t)(uintptr_t)&ok),
        w_fd_write(1, (uint32_t)(uintptr_t)iov, 1, far),
        w_fd_write(1, (uint32_t)(uintptr_t)iov, 0x20000000u, (uint32_t)(uintptr_t)&ok),
        w_fd_read(0, (uint32_t)(uintptr_t)iov, 1, far),
        w_fd_fdstat_get(1, far),
        w_fd_filestat_get(1, far - 32),
        w_random_get(far, 32),
        w_random_get((uint32_t)(uintptr_t)text, 0xffffffffu),
        w_poll_oneoff(far, (uint32_t)(uintptr_t)iov, 1, (uint32_t)(uintptr_t)&ok),
    };
    for (unsigned i = 0; i < sizeof answers / sizeof answers[0]; i++)
        if (answers[i] != EFAULT_WASI) __builtin_trap();
}
#else
static void hostile(void) {}
#endif

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
