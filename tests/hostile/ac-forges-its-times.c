/* expect: AC */
/* Right, but slow on purpose, with a write() that zeroes each reply's time and a clock_gettime() that stands still, both linked into the runner's program: the times reported must still be the real ones (a forged 0 ms once won the gold speed tier). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void honest_mha(float *out, const float *x, const float *wq, const float *wk,
                       const float *wv, const float *wo, const unsigned char *mask,
                       int B, int T, int d, int n_heads, int causal)
{
    int D = d / n_heads;
    float scale = 1.0f / sqrtf((float)D);
    float *qkv = malloc(sizeof(float) * 3 * (size_t)T * d);
    float *ctx = malloc(sizeof(float) * (size_t)T * d);
    float *p = malloc(sizeof(float) * (size_t)T);
    if (!qkv || !ctx || !p) return;
    float *q = qkv, *k = qkv + (size_t)T * d, *v = qkv + 2 * (size_t)T * d;
    for (int b = 0; b < B; b++) {
        const float *xb = x + (size_t)b * T * d;
        memset(qkv, 0, sizeof(float) * 3 * (size_t)T * d);
        for (int t = 0; t < T; t++)
            for (int i = 0; i < d; i++) {
                float xi = xb[t * d + i];
                for (int j = 0; j < d; j++) {
                    q[t * d + j] += xi * wq[i * d + j];
                    k[t * d + j] += xi * wk[i * d + j];
                    v[t * d + j] += xi * wv[i * d + j];
                }
            }
        for (int h = 0; h < n_heads; h++)
            for (int i = 0; i < T; i++) {
                float *c = ctx + i * d + h * D, top = -INFINITY, sum = 0;
                for (int j = 0; j < T; j++) {
                    p[j] = -INFINITY;
                    if ((causal && j > i) || (mask && !mask[b * T + j])) continue;
                    float dot = 0;
                    for (int e = 0; e < D; e++) dot += q[i * d + h * D + e] * k[j * d + h * D + e];
                    p[j] = dot * scale;
                    if (p[j] > top) top = p[j];
                }
                memset(c, 0, sizeof(float) * D);
                if (top == -INFINITY) continue;
                for (int j = 0; j < T; j++) sum += (p[j] = expf(p[j] - top));
                for (int j = 0; j < T; j++)
                    for (int e = 0; e < D; e++) c[e] += p[j] / sum * v[j * d + h * D + e];
            }
        float *ob = out + (size_t)b * T * d;
        for (int t = 0; t < T; t++)
            for (int col = 0; col < d; col++) {
                float acc = 0;
                for (int m = 0; m < d; m++) acc += ctx[t * d + m] * wo[m * d + col];
                ob[t * d + col] = acc;
            }
    }
    free(qkv);
    free(ctx);
    free(p);
}

#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

ssize_t write(int fd, const void *buf, size_t n)
{
    if (fd == 3 && n == 16) {   /* a reply's head: its time, zeroed */
        uint64_t zero = 0;
        memcpy((char *)buf + 8, &zero, sizeof zero);
    }
    return syscall(SYS_write, fd, buf, n);
}

int clock_gettime(clockid_t clock, struct timespec *t)
{
    (void)clock;
    t->tv_sec = 0;
    t->tv_nsec = 0;
    return 0;
}

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    honest_mha(out, x, wq, wk, wv, wo, mask, B, T, d, n_heads, causal);
    struct timespec t0, t;
    syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &t0);
    do syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &t);   /* 2 ms of real time */
    while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 2000000L);
}
