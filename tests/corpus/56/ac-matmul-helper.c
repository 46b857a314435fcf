/* expect: AC */
/* Counts matmul by matmul with a helper 2*m*k*n in unsigned 64-bit; finds the crossover by solving the inequality with integer division. */
#include <stdint.h>

static uint64_t mm(uint64_t m, uint64_t k, uint64_t n) { return 2 * m * k * n; }

void attn_flops(long long *proj, long long *attn, long long *cross,
                const int *d, const int *T, int n)
{
    for (int i = 0; i < n; i++) {
        uint64_t D = (uint64_t)d[i], L = (uint64_t)T[i];
        uint64_t p = mm(L, D, D) + mm(L, D, D) + mm(L, D, D) + mm(L, D, D);
        uint64_t a = mm(L, D, L) + mm(L, L, D);
        proj[i] = (long long)p;
        attn[i] = (long long)a;
        /* 4 T^2 d > 8 T d^2  <=>  T > 8d^2 / 4d = 2d: the next integer. */
        cross[i] = (long long)((8 * D * D) / (4 * D) + 1);
    }
}
