/* att_ceil.c: the ceilings measured (att.h), for `make bench` and the
 * judge's speed tier alike: the loops of att_ceil.h at one width, timed. */
#include <string.h>
#include <time.h>
#include "att_fast.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static const struct {
    att_simd_level lv;
    const att_kernels *kern;   /* its kernels: name, and whether they are real */
    float (*fma)(long, double *);
    float (*rd)(const float *, size_t);
} widths[] = {
    { ATT_SIMD_AVX512, &att_kern_avx512, att_ceil_fma_avx512, att_ceil_read_avx512 },
    { ATT_SIMD_AVX2, &att_kern_avx2, att_ceil_fma_avx2, att_ceil_read_avx2 },
    { ATT_SIMD_V128, &att_kern_v128, att_ceil_fma_v128, att_ceil_read_v128 },
};

static int width(att_simd_level lv)
{
    for (int i = 0; i < (int)(sizeof widths / sizeof widths[0]); i++)
        if (lv == ATT_SIMD_AUTO ? !strcmp(widths[i].kern->name, att_simd_name()) : widths[i].lv == lv) return i;
    return -1;
}

/* One timed try on `threads` workers at once (att_parallel), each with its
 * own result: every worker runs the whole FMA loop, or reads its own
 * share of x, so the try's FLOPs or bytes over its wall time is what the
 * workers get together, as a kernel split over them does. */
typedef struct {
    int w;
    long iters;
    const float *x;
    size_t share;      /* floats each worker reads */
    float *sink;       /* per worker */
    double *flops;     /* per worker */
} ceil_try;

static void fma_task(const void *ctx, int tid, int n)
{
    const ceil_try *c = ctx;
    (void)n;
    c->sink[tid] = widths[c->w].fma(c->iters, &c->flops[tid]);
}

static void read_task(const void *ctx, int tid, int n)
{
    const ceil_try *c = ctx;
    (void)n;
    c->sink[tid] = widths[c->w].rd(c->x + (size_t)tid * c->share, c->share);
}

/* The try's wall time in ms; its results are summed into *sink and, for the
 * FMA loop, its FLOPs into *flops. */
static double timed_try(att_task fn, ceil_try *c, int threads, float *sink, double *flops)
{
    float s[ATT_MAX_THREADS] = { 0 };
    double f[ATT_MAX_THREADS] = { 0 };
    c->sink = s;
    c->flops = f;
    double t0 = now_ms();
    att_parallel(threads, fn, c);
    double ms = now_ms() - t0;
    *flops = 0.0;
    for (int t = 0; t < threads; t++) *sink += s[t], *flops += f[t];
    return ms;
}

/* Warm-up calls first: V8 starts wasm in its baseline compiler and moves a
 * function to the optimising one only for later calls. Then the best of
 * many short tries: on a shared machine some of them get a core to
 * themselves. The loops are in other objects, so no call is optimised out
 * whatever becomes of their results (summed into *sink). */
double att_ceil_fma_gflops(att_simd_level lv, int threads, long iters, int tries, float *sink)
{
    int w = width(lv);
    if (w < 0) return 0.0;
    threads = att_threads_clamp(threads);
    double best = 0.0, f;
    for (int i = 0; i < 2000; i++) *sink += widths[w].fma(1000, &f);
    ceil_try c = { .w = w, .iters = iters };
    for (int i = 0; i < tries; i++) {
        double ms = timed_try(fma_task, &c, threads, sink, &f);
        if (f / (ms * 1e6) > best) best = f / (ms * 1e6);
    }
    return best;
}

static double read_gbs_at(int w, int threads, const float *x, size_t n, int tries, float *sink)
{
    double best = 0.0, f;
    for (int i = 0; i < 2000; i++) *sink += widths[w].rd(x, 4096 < n ? 4096 : n);
    /* whole groups of 64 floats each: the loops' step at every width */
    ceil_try c = { .w = w, .x = x, .share = n / (size_t)threads / 64 * 64 };
    for (int i = 0; i < tries; i++) {
        double ms = timed_try(read_task, &c, threads, sink, &f);
        double gb = (double)c.share * (size_t)threads * sizeof *x / (ms * 1e6);
        if (gb > best) best = gb;
    }
    return best;
}

/* Read bandwidth is the memory's, not a width's, but a width can fall short
 * of it: on a Zen 5 at rest the AVX-512 loop read 23.6-24.5 GB/s where
 * AVX2's read 31.3-32.5 and SSE's 29.5-30.1 (256 MiB, one thread, four runs
 * in one process). So ATT_SIMD_AUTO takes the best of every width this CPU
 * runs on real instructions. */
double att_ceil_read_gbs(att_simd_level lv, int threads, const float *x, size_t n, int tries, float *sink)
{
    threads = att_threads_clamp(threads);
    if (lv != ATT_SIMD_AUTO) {
        int w = width(lv);
        return w < 0 ? 0.0 : read_gbs_at(w, threads, x, n, tries, sink);
    }
    double best = 0.0;
    for (int w = 0; w < (int)(sizeof widths / sizeof widths[0]); w++)
        if (att_simd_available(widths[w].lv) && widths[w].kern->real) {
            double gb = read_gbs_at(w, threads, x, n, tries, sink);
            if (gb > best) best = gb;
        }
    return best;
}
