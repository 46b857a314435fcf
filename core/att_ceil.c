/* att_ceil.c: the ceilings measured (att.h), for `make bench` and the
 * judge's speed tier alike: the loops of att_ceil.h at one width, timed. */
#include <string.h>
#include <time.h>
#include "att.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static const struct {
    att_simd_level lv;
    const char *name;   /* att_simd_name()'s */
    float (*fma)(long, double *);
    float (*rd)(const float *, size_t);
} widths[] = {
    { ATT_SIMD_AVX512, "avx512", att_ceil_fma_avx512, att_ceil_read_avx512 },
    { ATT_SIMD_AVX2, "avx2", att_ceil_fma_avx2, att_ceil_read_avx2 },
    { ATT_SIMD_V128, "v128", att_ceil_fma_v128, att_ceil_read_v128 },
};

static int width(att_simd_level lv)
{
    for (int i = 0; i < (int)(sizeof widths / sizeof widths[0]); i++)
        if (lv == ATT_SIMD_AUTO ? !strcmp(widths[i].name, att_simd_name()) : widths[i].lv == lv) return i;
    return -1;
}

/* Warm-up calls first: V8 starts wasm in its baseline compiler and moves a
 * function to the optimising one only for later calls. Then the best of
 * many short tries: on a shared machine some of them get a core to
 * themselves. The loops are in other objects, so no call is optimised out
 * whatever becomes of their results (summed into *sink). */
double att_ceil_fma_gflops(att_simd_level lv, long iters, int tries, float *sink)
{
    int w = width(lv);
    if (w < 0) return 0.0;
    double best = 0.0, f;
    for (int i = 0; i < 2000; i++) *sink += widths[w].fma(1000, &f);
    for (int i = 0; i < tries; i++) {
        double t0 = now_ms();
        *sink += widths[w].fma(iters, &f);
        double gf = f / ((now_ms() - t0) * 1e6);
        if (gf > best) best = gf;
    }
    return best;
}

double att_ceil_read_gbs(att_simd_level lv, const float *x, size_t n, int tries, float *sink)
{
    int w = width(lv);
    if (w < 0) return 0.0;
    double best = 0.0;
    for (int i = 0; i < 2000; i++) *sink += widths[w].rd(x, 4096 < n ? 4096 : n);
    for (int i = 0; i < tries; i++) {
        double t0 = now_ms();
        *sink += widths[w].rd(x, n);
        double gb = (double)n * sizeof *x / ((now_ms() - t0) * 1e6);
        if (gb > best) best = gb;
    }
    return best;
}
