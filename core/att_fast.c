/* att_fast.c: the public _simd entry points (att.h, "fast kernels"): checks
 * the arguments, sizes the scratch, picks the kernel table (att_fast.h) and
 * runs its workers through att_parallel. The kernels themselves are in
 * att_kern.h; this file has no SIMD. The only per-architecture code in the
 * fast path is the CPU check below. */
#include <math.h>
#include "att_fast.h"

static const att_kernels *const tables[] = {
    [ATT_SIMD_V128] = &att_kern_v128,
    [ATT_SIMD_AVX2] = &att_kern_avx2,
    [ATT_SIMD_AVX512] = &att_kern_avx512,
};

/* Chosen by att_simd_select, or on first use by each entry point below
 * before it starts workers (which then only read it: posting the job under
 * the pool's mutex orders the write before their reads). Select a level
 * before sharing the core between threads of your own. */
static const att_kernels *cur;

/* Can this CPU run table t? A table compiled without native instructions
 * (SIMDE_NO_NATIVE, wasm, non-x86) runs anywhere. */
static int cpu_runs(const att_kernels *t)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (t->native == 2) return __builtin_cpu_supports("avx512f");
    if (t->native == 1) return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
    return t->native == 0;
}

int att_simd_available(att_simd_level level)
{
    if (level == ATT_SIMD_AUTO) return 1;
    if (level < ATT_SIMD_V128 || level > ATT_SIMD_AVX512) return 0;
    return cpu_runs(tables[level]);
}

att_status att_simd_select(att_simd_level level)
{
    if (level == ATT_SIMD_AUTO) {
        /* The widest that is native; emulated widths are for the tests. */
        cur = &att_kern_v128;
        for (int l = ATT_SIMD_AVX512; l > ATT_SIMD_V128; l--)
            if (tables[l]->native && cpu_runs(tables[l])) {
                cur = tables[l];
                break;
            }
        return ATT_OK;
    }
    if (!att_simd_available(level)) return ATT_ENOSIMD;
    cur = tables[level];
    return ATT_OK;
}

static const att_kernels *kern(void)
{
    if (!cur) att_simd_select(ATT_SIMD_AUTO);
    return cur;
}

const char *att_simd_name(void) { return kern()->name; }
int att_simd_native(void) { return kern()->real; }

static int clamp_threads(int threads)
{
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
    (void)threads;
    return 1;
#else
    return threads < 1 ? 1 : threads > ATT_MAX_THREADS ? ATT_MAX_THREADS : threads;
#endif
}

void att_exp_simd(float *y, const float *x, size_t n) { kern()->exp(y, x, n); }

/* ---- GEMM ---- */
size_t att_gemm_ws_floats(int K)
{
    size_t kb = K < ATT_KC ? (size_t)K : ATT_KC;
    /* A packed strip of w (all of K), a block of a, one register tile. */
    return (size_t)K * ATT_GC + kb * ATT_MR_MAX + ATT_MR_MAX * ATT_NR_MAX;
}

size_t att_matmul_scratch_floats(int K, int N, int threads)
{
    int n = clamp_threads(threads);
    return K < 1 || N < 1 ? 0 : n * att_gemm_ws_floats(K);
}

static void gemm_task(const void *ctx, int tid, int n) { kern()->gemm(ctx, tid, n); }

att_status att_matmul_simd(float *out, const float *a, const float *w,
                           int M, int K, int N, int threads, float *scratch)
{
    if (M < 1 || K < 1 || N < 1) return ATT_EBADSHAPE;
    int n = clamp_threads(threads);
    atomic_long next = 0;
    att_gemm_job j = { out, a, w, M, K, N, scratch, att_gemm_ws_floats(K), &next };
    kern();
    att_parallel(n, gemm_task, &j);
    return ATT_OK;
}

/* ---- attention ---- */
static att_status check(const att_attn_desc *a)
{
    if (a->T < 1 || a->S < 1 || a->H < 1 || a->Hkv < 1 || a->D < 1) return ATT_EBADSHAPE;
    return a->H % a->Hkv ? ATT_EKVHEADS : ATT_OK;
}

size_t att_attn_ws_floats(int T, int S, int D)
{
    (void)T;
    size_t Sp = ((size_t)S + ATT_BC - 1) / ATT_BC * ATT_BC;
    size_t Dp = ((size_t)D + ATT_NR_MAX - 1) / ATT_NR_MAX * ATT_NR_MAX;
    return Sp * D + Sp * Dp + ATT_MR_MAX * (2 * ATT_BC + ATT_QB * (Dp + (size_t)D));
}

size_t att_attn_scratch_floats(const att_attn_desc *a, int threads)
{
    return check(a) ? 0 : clamp_threads(threads) * att_attn_ws_floats(a->T, a->S, a->D);
}

static att_attn_job job(float *out, const float *q, const float *k, const float *v,
                        const unsigned char *key_mask, const att_attn_desc *a,
                        float *scratch, size_t ws)
{
    att_attn_job j = { out, q, k, v, key_mask, a->ldo, a->hso, a->ldq, a->hsq, a->ldkv, a->hskv,
                       a->T, a->S, a->H, a->Hkv, a->D, a->causal, a->window, a->scale,
                       scratch, ws, NULL };
    return j;
}

static void attn_task(const void *ctx, int tid, int n) { kern()->attn(ctx, tid, n); }
static void decode_task(const void *ctx, int tid, int n) { kern()->decode(ctx, tid, n); }

att_status att_attn_simd(float *out, const float *q, const float *k,
                         const float *v, const unsigned char *key_mask,
                         const att_attn_desc *a, int threads, float *scratch)
{
    att_status s = check(a);
    if (s) return s;
    int n = clamp_threads(threads);
    att_attn_job j = job(out, q, k, v, key_mask, a, scratch, att_attn_ws_floats(a->T, a->S, a->D));
    atomic_long next[ATT_MAX_THREADS] = { 0 };
    j.next = next;
    kern();
    att_parallel(n, attn_task, &j);
    return ATT_OK;
}

size_t att_decode_scratch_floats(const att_attn_desc *a, int threads)
{
    (void)threads;   /* the workers share one [H][S] score array */
    return check(a) ? 0 : (size_t)a->H * a->S;
}

att_status att_decode_simd(float *out, const float *q, const float *k,
                           const float *v, const unsigned char *key_mask,
                           const att_attn_desc *a, int threads, float *scratch)
{
    att_status s = check(a);
    if (s) return s;
    if (a->T != 1) return ATT_EBADSHAPE;
    att_attn_job j = job(out, q, k, v, key_mask, a, scratch, 0);
    kern();
    att_parallel(clamp_threads(threads), decode_task, &j);
    return ATT_OK;
}

/* ---- multi-head attention, exercise 49 ---- */
static void gemm3_task(const void *ctx, int tid, int n)
{
    const att_gemm_job *j = ctx;
    for (int i = 0; i < 3; i++) kern()->gemm(&j[i], tid, n);
}

size_t att_mha_simd_scratch_floats(int T, int d, int H, int threads)
{
    if (T < 1 || d < 1 || H < 1 || d % H) return 0;
    int n = clamp_threads(threads);
    size_t g = n * att_gemm_ws_floats(d), at = n * att_attn_ws_floats(T, T, d / H);
    return 4 * (size_t)T * d + (g > at ? g : at);
}

att_status att_mha_simd(float *out, const float *x, const float *wq,
                        const float *wk, const float *wv, const float *wo,
                        const unsigned char *mask, int B, int T, int d, int H,
                        int causal, int threads, float *scratch)
{
    if (B <= 0 || T <= 0 || d <= 0 || H <= 0) return ATT_EBADSHAPE;
    if (d % H != 0) return ATT_EHEADS;
    const int D = d / H;
    const size_t td = (size_t)T * d;
    float *q = scratch, *k = q + td, *v = k + td, *heads = v + td, *ws = heads + td;
    att_attn_desc a = { T, T, H, H, D, causal, 0, 1.0f / sqrtf((float)D),
                        d, D, d, D, d, D, 0 };
    const int n = clamp_threads(threads);
    const size_t gws = att_gemm_ws_floats(d);
    for (int b = 0; b < B; b++) {
        const float *xb = x + b * td;
        /* q, k and v in one fork/join: the workers take the items of the
         * three in turn, with no wait between them. */
        atomic_long next[3] = { 0, 0, 0 };
        att_gemm_job qkv[3] = { { q, xb, wq, T, d, d, ws, gws, &next[0] },
                                { k, xb, wk, T, d, d, ws, gws, &next[1] },
                                { v, xb, wv, T, d, d, ws, gws, &next[2] } };
        kern();
        att_parallel(n, gemm3_task, qkv);
        att_attn_simd(heads, q, k, v, mask ? mask + (size_t)b * T : NULL, &a, threads, ws);
        att_matmul_simd(out + b * td, heads, wo, T, d, d, threads, ws);
    }
    return ATT_OK;
}

const att_kernels *att_kern_current(void) { return kern(); }
