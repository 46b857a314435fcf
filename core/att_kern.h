/* att_kern.h: the fast kernels, written once as a template over the SIMD
 * layer (att_simd.h) and compiled at three widths by att_kern_avx512.c,
 * att_kern_avx2.c and att_kern_v128.c. No intrinsics here, no #ifdef per
 * architecture: only vf_* operations, every vector loop with its tail.
 *
 * The includer defines ATT_VW (lanes), ATT_MR (rows of the register tile),
 * ATT_NV (vectors per tile row; NR = ATT_NV * ATT_VW columns), ATT_PACK_A
 * (1: the register tile reads a packed k-major, see block_a) and ATT_TABLE
 * (the name of the exported att_kernels table).
 *
 * Shapes, edge rules and the public entry points are in att.h ("fast
 * kernels"); argument checks and threading are in att_fast.c. */
#include <math.h>
#include <string.h>
#include "att_fast.h"
#include "att_simd.h"

#define MR ATT_MR
#define NR (ATT_NV * ATT_VW)
#define BC ATT_BC

#if MR > ATT_MR_MAX || NR > ATT_NR_MAX || BC % NR != 0 || ATT_GC % NR != 0
#error "register tile out of the bounds att_fast.h sizes scratch with"
#endif
#if ATT_PACK_A && MR % 4 != 0
#error "block_a packs rows of a in 4 x 4 transposes: MR must be a multiple of 4"
#endif

/* ---- exp ----
 * exp(x) = 2^n * e^r, n = round(x / ln 2), r = x - n ln 2 in [-ln2/2, ln2/2]
 * (Cody-Waite: ln 2 split in a part with few bits, so n * LN2_HI is exact).
 * e^r is a degree-7 polynomial 1 + r + r^2 P(r), P a minimax fit (the
 * classic coefficients of Cephes' expf). n comes from the float itself:
 * adding 1.5 * 2^23 rounds x/ln2 to an integer held in the low mantissa
 * bits, and 2^n is built by putting n + 127 in the exponent field, so no
 * float <-> int conversion is needed. Error bound (tests/kernels_test.c
 * measures it against double exp): relative error <= 2e-7 (1.7 ulp; 1.18e-7
 * measured natively, without FMA, and in wasm) for x in [-87.33, 88];
 * x < -87.33 (including -inf) gives +0, an absolute error below 1.2e-38;
 * x > 88 gives exp(88); NaN gives +0.
 * Below -87.33 nothing needs clamping: the last step selects +0 from x
 * itself, and whatever the arithmetic made of such an x (2^n's bits hold a
 * zero mantissa, so never a subnormal) is dropped. vexp_from does the
 * arithmetic on xc (x, or x clamped above) and the select on x. */
static inline vf vexp_from(vf x, vf xc)
{
    const vf magic = vf_set1(12582912.0f);   /* 1.5 * 2^23 */
    vf t = vf_fma(xc, vf_set1(1.44269504088896341f), magic);
    vf nf = vf_sub(t, magic);
    vf r = vf_fma(nf, vf_set1(-0.693359375f), xc);
    r = vf_fma(nf, vf_set1(2.12194440e-4f), r);
    vf p = vf_set1(1.9875691500e-4f);
    p = vf_fma(p, r, vf_set1(1.3981999507e-3f));
    p = vf_fma(p, r, vf_set1(8.3334519073e-3f));
    p = vf_fma(p, r, vf_set1(4.1665795894e-2f));
    p = vf_fma(p, r, vf_set1(1.6666665459e-1f));
    p = vf_fma(p, r, vf_set1(5.0000001201e-1f));
    p = vf_fma(p, vf_mul(r, r), vf_add(r, vf_set1(1.0f)));
    vi n = vi_sub(vf_bits(t), vf_bits(magic));
    vf scale = vi_float(vi_shl(vi_add(n, vi_set1(127)), 23));
    return vf_sel_ge(x, vf_set1(-87.33654f), vf_mul(p, scale));
}

/* vf_min keeps 88 for a NaN x (its second operand), which the select on x
 * then turns into +0. */
static inline vf vexp(vf x) { return vexp_from(x, vf_min(x, vf_set1(88.0f))); }

/* The softmax's exp: its arguments are score - max, never above 0 (or
 * -inf, or NaN), so without vexp's clamp; the same bound. */
static inline vf vexp_le0(vf x) { return vexp_from(x, x); }

static void exp_array(float *y, const float *x, size_t n)
{
    size_t i = 0;
    for (; i + ATT_VW <= n; i += ATT_VW) vf_store(y + i, vexp(vf_load(x + i)));
    if (i < n) {   /* the tail goes through the same vector code */
        float buf[ATT_VW] = { 0 };
        memcpy(buf, x + i, (n - i) * sizeof *x);
        vf_store(buf, vexp(vf_load(buf)));
        memcpy(y + i, buf, (n - i) * sizeof *y);
    }
}

/* ---- the register tile ----
 * c[MR, NR] (row stride ldc) (+)= a[MR, K] . bp[K, NR] (a packed panel,
 * contiguous), a as block_a gives it: with ATT_PACK_A, k-major (a[k * MR +
 * r], lda unused), else rows of stride lda. Packing is for wasm: there each
 * strided row costs integer address arithmetic per row and k (the engine
 * does not strength-reduce it, and it competed with the multiply-adds);
 * natively the compiler keeps row pointers, and a pack per block only costs
 * (10-50% on the GEMM when every width packed).
 * Every row of a and column of bp must exist: callers pad, and keep only
 * the rows and columns they need. The MR x NV accumulators are meant to
 * live in registers: the loops over them have constant trip counts and are
 * fully unrolled. */
static inline void tile_core(float *c, int ldc, const float *a, size_t rs, size_t ks,
                             const float *bp, int K, int accumulate)
{
    vf acc[MR][ATT_NV];
#pragma GCC unroll 16
    for (int r = 0; r < MR; r++)
#pragma GCC unroll 4
        for (int v = 0; v < ATT_NV; v++)
            acc[r][v] = accumulate ? vf_load(c + (size_t)r * ldc + v * ATT_VW) : vf_zero();
    for (int k = 0; k < K; k++, a += ks, bp += NR) {
        vf b[ATT_NV];
#pragma GCC unroll 4
        for (int v = 0; v < ATT_NV; v++) b[v] = vf_load(bp + v * ATT_VW);
#pragma GCC unroll 16
        for (int r = 0; r < MR; r++) {
            vf ar = vf_set1(a[r * rs]);
#pragma GCC unroll 4
            for (int v = 0; v < ATT_NV; v++) acc[r][v] = vf_fma(ar, b[v], acc[r][v]);
        }
    }
#pragma GCC unroll 16
    for (int r = 0; r < MR; r++)
#pragma GCC unroll 4
        for (int v = 0; v < ATT_NV; v++) vf_store(c + (size_t)r * ldc + v * ATT_VW, acc[r][v]);
}

/* c = a . bp (accumulate 0) or c += a . bp (1), for the GEMM, which runs
 * best with it inlined. */
static void tile(float *c, int ldc, const float *a, size_t lda, const float *bp, int K, int accumulate)
{
    tile_core(c, ldc, a, ATT_PACK_A ? 1 : lda, ATT_PACK_A ? MR : 1, bp, K, accumulate);
}

/* c = a . bp (accumulate 0) or c += a . bp (1), for the attention: kept out
 * of its long loop, where V8 (wasm) kept fewer of the accumulators in
 * registers: T = 2048 took 390 ms inlined, 330 out of line. (The GEMM the
 * other way round: 72 ms inlined, 86 out of line.) */
static __attribute__((noinline)) void tile_attn(float *c, int ldc, const float *a, size_t lda,
                                                const float *bp, int K, int accumulate)
{
    tile_core(c, ldc, a, ATT_PACK_A ? 1 : lda, ATT_PACK_A ? MR : 1, bp, K, accumulate);
}

/* The same with a transposed: a[r][k] = a[k * ld + r], MR rows side by side
 * in each of K rows of ld floats. This is block_a's packed layout with ld
 * for MR, so a transposed matrix needs no copy at any width. */
static __attribute__((noinline)) void tile_attn_t(float *c, int ldc, const float *a, size_t ld,
                                                  const float *bp, int K, int accumulate)
{
    tile_core(c, ldc, a, 1, ld, bp, K, accumulate);
}

static int imin(int a, int b) { return a < b ? a : b; }
static int imax(int a, int b) { return a > b ? a : b; }

/* A block of MR rows of a (the first `rows` real, row stride lda, K deep)
 * as tile_core reads it, the rest zero: with ATT_PACK_A packed k-major into
 * dst; else a itself when all MR rows are real, or a zero-padded copy in dst
 * ([MR][K]). *ld gets the row stride to pass on. */
static const float *block_a(float *dst, const float *a, size_t lda, int rows, int K, size_t *ld)
{
    if (ATT_PACK_A) {
        /* 4 x 4 blocks where rows and columns are whole (MR is a multiple of
         * 4, checked above), one float at a time at the edges: one float at a
         * time throughout, wasm's (a) and (b) took 3-4% longer (medians of
         * four runs, alternating, Zen 5). */
        const int kw = rows == MR ? K / 4 * 4 : 0;
        for (int r = 0; r < MR && kw; r += 4)
            for (int k = 0; k < kw; k += 4) t4_scaled(dst + (size_t)k * MR + r, MR, a + (size_t)r * lda + k, lda, 1.0f);
        for (int r = 0; r < MR; r++)
            for (int k = kw; k < K; k++)
                dst[(size_t)k * MR + r] = r < rows ? a[(size_t)r * lda + k] : 0.0f;
        *ld = MR;
        return dst;
    }
    *ld = lda;
    if (rows == MR) return a;
    for (int r = 0; r < MR; r++)
        for (int k = 0; k < K; k++)
            dst[(size_t)r * K + k] = r < rows ? a[(size_t)r * lda + k] : 0.0f;
    *ld = (size_t)K;
    return dst;
}

/* ---- GEMM: out[M, N] = a[M, K] . w[K, N] ----
 * Work items are tiles of ATT_GR row blocks (MR rows each) by ATT_GC columns
 * (whole NR panels), taken one at a time from a shared counter as the
 * attention's are: a worker that gets less of the CPU (a shared machine)
 * takes fewer, instead of holding up the rest with a fixed share. Who
 * computes an item does not change its result. Items go strip by strip, and
 * a worker keeps the strip of w it last packed (all of K, in KC-deep slabs,
 * zero-padded to NR columns), so consecutive items of one strip pack it
 * once: repacking it per row range cost 5-15% natively. Per slab the item
 * sweeps its rows in blocks of MR (block_a): the slab stays in L2, the
 * block of a in L1. */
static void pack_strip(const att_gemm_job *j, float *bp, int n0, int np)
{
    const int K = j->K, N = j->N;
    for (int kc = 0; kc < K; kc += ATT_KC) {
        const int kb = imin(ATT_KC, K - kc);
        for (int p = 0; p < np; p++) {
            float *dst = bp + (size_t)kc * ATT_GC + (size_t)p * kb * NR;
            const int c0 = n0 + p * NR, nc = imin(NR, N - c0);
            /* Whole vectors where the panel is full: a call to memcpy per NR
             * floats cost more than the copy (above all in wasm). */
            for (int k = 0; k < kb; k++) {
                const float *src = j->w + (size_t)(kc + k) * N + c0;
                float *d = dst + (size_t)k * NR;
                if (nc == NR)
                    for (int c = 0; c < NR; c += ATT_VW) vf_store(d + c, vf_load(src + c));
                else
                    for (int c = 0; c < NR; c++) d[c] = c < nc ? src[c] : 0.0f;
            }
        }
    }
}

static void gemm_part(const att_gemm_job *j, int tid, int n)
{
    (void)n;
    const int M = j->M, K = j->K, N = j->N, nstrips = (N + ATT_GC - 1) / ATT_GC;
    const int rc = ATT_GR * MR, nchunks = (M + rc - 1) / rc;
    float *bp = j->scratch + (size_t)tid * j->ws;
    float *ap = bp + (size_t)K * ATT_GC;
    float *ct = ap + (size_t)imin(K, ATT_KC) * MR;
    int have = -1;   /* the strip packed in bp */
    for (long it; (it = atomic_fetch_add(j->next, 1)) < (long)nstrips * nchunks;) {
        const int strip = (int)(it / nchunks), n0 = strip * ATT_GC;
        const int m0 = (int)(it % nchunks) * rc;
        const int m1 = imin(M, m0 + rc), np = (imin(ATT_GC, N - n0) + NR - 1) / NR;
        if (strip != have) {
            pack_strip(j, bp, n0, np);
            have = strip;
        }
        for (int kc = 0; kc < K; kc += ATT_KC) {
            const int kb = imin(ATT_KC, K - kc);
            const float *slab = bp + (size_t)kc * ATT_GC;
            for (int i0 = m0; i0 < m1; i0 += MR) {
                const int rows = imin(MR, m1 - i0);
                const float *a0 = j->a + (size_t)i0 * K + kc;
                size_t lda;
                const float *ab = block_a(ap, a0, (size_t)K, rows, kb, &lda);
                for (int p = 0; p < np; p++) {
                    const int c0 = n0 + p * NR, nc = imin(NR, N - c0);
                    if (rows == MR && nc == NR) {   /* a whole tile: into out, no copy (3% natively) */
                        tile(j->out + (size_t)i0 * N + c0, N, ab, lda, slab + (size_t)p * kb * NR, kb,
                             kc > 0);
                        continue;
                    }
                    tile(ct, NR, ab, lda, slab + (size_t)p * kb * NR, kb, 0);
                    for (int r = 0; r < rows; r++) {
                        float *o = j->out + (size_t)(i0 + r) * N + c0;
                        const float *t = ct + r * NR;
                        if (kc == 0) memcpy(o, t, nc * sizeof(float));
                        else for (int c = 0; c < nc; c++) o[c] += t[c];
                    }
                }
            }
        }
    }
}

/* ---- fused attention (FlashAttention-style) ----
 * Per (head, block of MR queries): walk the key tiles of BC keys that the
 * mask leaves visible, S = Q K^T for the tile with the register tile, an
 * online softmax (running max m, running sum l, the output rescaled by
 * exp(m_old - m_new)), then O += P V. No T x S matrix exists; a tile the
 * causal or window mask hides entirely is never visited, a tile whose keys
 * are all padding is skipped, and only tiles cut by a mask edge pay for a
 * per-element mask. K is packed per kv head as panels [D][NR] (pre-scaled,
 * so the scores come out scaled), V as feature panels [S][NR], both zero-
 * padded to whole tiles. */
typedef struct {
    float *kp, *vp, *st, *o;
    float *qp, *pt;          /* block_a's room for the QB query blocks and P */
    int Sp, Dp, nfp;
} attn_ws;

/* x [rows] (row stride ld) [D] as panels of NR rows transposed,
 * [rows / NR][D][NR], times s; zero past rows. 4 x 4 blocks where whole
 * (NR is a multiple of 4), one float at a time at the edges. */
static void pack_rows_t(float *dst, const float *x, size_t ld, int rows, int D, float s)
{
    for (int p = 0; p < (rows + NR - 1) / NR; p++) {
        const int r0 = p * NR, nr = imin(NR, rows - r0), cw = nr == NR ? D / 4 * 4 : 0;
        const float *xs = x + (size_t)r0 * ld;
        float *d = dst + (size_t)p * D * NR;
        for (int r = 0; r < NR && cw; r += 4)
            for (int c = 0; c < cw; c += 4) t4_scaled(d + (size_t)c * NR + r, NR, xs + (size_t)r * ld + c, ld, s);
        for (int c = cw; c < D; c++) {
            for (int r = 0; r < nr; r++) d[(size_t)c * NR + r] = xs[(size_t)r * ld + c] * s;
            for (int r = nr; r < NR; r++) d[(size_t)c * NR + r] = 0.0f;
        }
    }
}

static void pack_kv(const att_attn_job *j, const attn_ws *w, int g)
{
    const int S = j->S, D = j->D, np = (S + NR - 1) / NR;
    const float *k = j->k + (size_t)g * j->hskv, *v = j->v + (size_t)g * j->hskv;
    /* K^T panels, then whole zero panels up to Sp. */
    pack_rows_t(w->kp, k, j->ldkv, S, D, j->scale);
    memset(w->kp + (size_t)np * D * NR, 0, (size_t)(w->Sp / NR - np) * D * NR * sizeof(float));
    /* V feature panels: whole vectors where the panel is full. */
    for (int f = 0; f < w->nfp; f++) {
        const int nc = imin(NR, D - f * NR);
        for (int s = 0; s < w->Sp; s++) {
            float *dst = w->vp + ((size_t)f * w->Sp + s) * NR;
            const float *src = v + (size_t)s * j->ldkv + f * NR;
            if (s < S && nc == NR)
                for (int c = 0; c < NR; c += ATT_VW) vf_store(dst + c, vf_load(src + c));
            else
                for (int c = 0; c < NR; c++) dst[c] = s < S && c < nc ? src[c] : 0.0f;
        }
    }
}

/* Hides what row r of a score tile (keys jb .. jb+BC-1) must not see: the
 * causal and window edges cut each row into one visible run [lo, hi), the
 * rest becomes -inf without a test per element; padding (key_mask) and the
 * keys past S are cleared inside the run. */
static void mask_tile(const att_attn_job *j, float *st, int pos0, int jb, int padded)
{
    for (int r = 0; r < MR; r++) {
        const int pos = pos0 + r;
        int lo = 0, hi = imin(BC, j->S - jb);
        if (j->causal) hi = imin(hi, pos - jb + 1);
        if (j->window > 0) lo = imax(lo, pos - j->window + 1 - jb);
        hi = imax(hi, 0);
        lo = imin(lo, hi);
        float *s = st + r * BC;
        for (int c = 0; c < lo; c++) s[c] = -INFINITY;
        for (int c = hi; c < BC; c++) s[c] = -INFINITY;
        if (padded)
            for (int c = lo; c < hi; c++)
                if (!j->key_mask[jb + c]) s[c] = -INFINITY;
    }
}

/* The online softmax over one score tile [MR][BC], its first ncol columns
 * (a multiple of ATT_VW, holding every key a row sees): per row the new max,
 * P = exp(S - max) in place, the running sum l; alpha[r] = exp(m_old -
 * m_new) rescales the output so far (all rows in one vector exp). A row
 * that has seen no key yet keeps P = 0, m = -inf, and gets alpha 0 (its
 * output is still 0). The running sums stay vectors, a partial sum per lane,
 * summed across once a row is done: summed across per row and tile, with l[r]
 * stored and loaded back tile after tile, they held a quarter of the samples
 * here (perf, native, Zen 5); the attention of `make bench`'s (a) went from
 * 2.03 to 1.92 ms (medians of six runs, alternating), (b)'s and wasm's
 * stayed within their noise. */
#define AR ((MR + ATT_VW - 1) / ATT_VW * ATT_VW)   /* MR rounded up to whole vectors */

static void softmax_tile(float *st, int ncol, float *m, vf *l, float *alpha)
{
    /* The MR alphas in whole vectors, the padding exp(0), rather than
     * exp_array's tail with its two calls to memcpy per tile (perf, native
     * (b): exp_array and memmove 1.5% of the samples before, attn_part 0.8%
     * more after). */
    float mnew[MR], diff[AR] = { 0 }, al[AR];
    for (int r = 0; r < MR; r++) {
        const float *s = st + r * BC;
        vf mx = vf_load(s);
        for (int c = ATT_VW; c < ncol; c += ATT_VW) mx = vf_max(mx, vf_load(s + c));
        const float hm = vf_hmax(mx);
        mnew[r] = hm > m[r] ? hm : m[r];
        diff[r] = m[r] == -INFINITY ? -INFINITY : m[r] - mnew[r];
    }
    for (int i = 0; i < AR; i += ATT_VW) vf_store(al + i, vexp(vf_load(diff + i)));
    for (int r = 0; r < MR; r++) {
        float *s = st + r * BC;
        alpha[r] = al[r];
        if (mnew[r] == -INFINITY) {
            memset(s, 0, ncol * sizeof *s);
            continue;
        }
        vf sum = vf_zero(), vm = vf_set1(mnew[r]);
        for (int c = 0; c < ncol; c += ATT_VW) {
            vf e = vexp_le0(vf_sub(vf_load(s + c), vm));
            vf_store(s + c, e);
            sum = vf_add(sum, e);
        }
        l[r] = vf_fma(l[r], vf_set1(alpha[r]), sum);
        m[r] = mnew[r];
    }
}

/* One block of MR queries of a work item: its rows in the query block, its
 * running max m, sum l and output o, and the range of keys it sees. */
typedef struct {
    const float *qs;
    size_t ldq;
    float m[MR], *o;
    vf l[MR];                /* running sums, per lane (softmax_tile) */
    int i0, rlo, rhi, pfirst, plast, jlo, jhi;
} attn_rows;

/* Key tile jb for one block of rows: scores (only the NR panels holding a
 * key the block sees), mask, online softmax, O += P V (over the keys up to
 * the last one seen, as P is 0 past it). */
static void attn_tile(const att_attn_job *j, const attn_ws *w, attn_rows *b, int jb, int real)
{
    const int D = j->D, nk = imin(BC, j->S - jb), kv = imin(nk, b->jhi - jb + 1);
    const int np = (kv + NR - 1) / NR;
    for (int p = 0; p < np; p++)
        tile_attn(w->st + p * NR, BC, b->qs, b->ldq, w->kp + (size_t)(jb / NR + p) * D * NR, D, 0);
    /* kv < BC only at the end of the keys (real < BC) or at the causal
     * edge, so the mask runs whenever panels were skipped, and the columns
     * past np * NR, left over from an earlier tile, become -inf. */
    if (real < BC || (j->causal && jb + BC - 1 > b->pfirst) ||
        (j->window > 0 && jb <= b->plast - j->window))
        mask_tile(j, w->st, b->i0 + j->S - j->T, jb, real < nk);
    /* Only the columns up to the last key seen: on a tile the causal edge
     * cuts, the rest is -inf, and P V reads kv of them. */
    float alpha[MR];
    softmax_tile(w->st, (kv + ATT_VW - 1) / ATT_VW * ATT_VW, b->m, b->l, alpha);
    size_t ldp;
    const float *pt = block_a(w->pt, w->st, BC, MR, kv, &ldp);
    for (int r = 0; r < MR; r++)
        if (alpha[r] != 1.0f) {   /* the max moved: rescale what is summed so far */
            float *o = b->o + (size_t)r * w->Dp;
            vf a = vf_set1(alpha[r]);
            for (int c = 0; c < w->Dp; c += ATT_VW) vf_store(o + c, vf_mul(vf_load(o + c), a));
        }
    for (int f = 0; f < w->nfp; f++)
        tile_attn(b->o + f * NR, w->Dp, pt, ldp, w->vp + ((size_t)f * w->Sp + jb) * NR, kv, 1);
}

/* Work item qb: queries qb*QB*MR .. +QB*MR of head h, as QB blocks of MR
 * rows that walk the key tiles together, so a tile of K and V (from L2 or
 * L3 when S is long) serves QB*MR queries while it is in L1, not MR (AVX2
 * on Zen 3: T = 2048 111 -> 107 ms, T = 512 5.3 -> 4.8). A block past T is
 * left out; the last real one is moved back to end at T (its first rlo rows
 * belong to the block before, computed and dropped), so every row of the
 * register tile is a real query. */
static void attn_item(const att_attn_job *j, const attn_ws *w, int h, int qb)
{
    const int T = j->T, S = j->S, off = S - T;
    attn_rows rows[ATT_QB];
    int nb = 0, jlo = S, jhi = -1;
    for (int bi = 0; bi < ATT_QB; bi++) {
        const int done = (qb * ATT_QB + bi) * MR;
        if (done >= T) break;
        attn_rows *b = &rows[nb++];
        b->i0 = done + MR <= T ? done : imax(T - MR, 0);
        b->rlo = done - b->i0, b->rhi = imin(MR, T - b->i0);
        const float *q0 = j->q + (size_t)b->i0 * j->ldq + (size_t)h * j->hsq;
        b->qs = block_a(w->qp + (size_t)bi * MR * j->D, q0, j->ldq, b->rhi, j->D, &b->ldq);
        b->pfirst = b->i0 + b->rlo + off, b->plast = b->i0 + b->rhi - 1 + off;
        b->jhi = j->causal ? imin(S - 1, b->plast) : S - 1;
        b->jlo = (j->window > 0 ? imax(0, b->pfirst - j->window + 1) : 0) / BC * BC;
        for (int r = 0; r < MR; r++) b->m[r] = -INFINITY, b->l[r] = vf_zero();
        b->o = w->o + (size_t)bi * MR * w->Dp;
        memset(b->o, 0, sizeof(float) * MR * w->Dp);
        jlo = imin(jlo, b->jlo), jhi = imax(jhi, b->jhi);
    }
    for (int jb = jlo; jb <= jhi; jb += BC) {
        const int nk = imin(BC, S - jb);
        int real = nk;
        if (j->key_mask) {
            real = 0;
            for (int c = 0; c < nk; c++) real += j->key_mask[jb + c] != 0;
            if (!real) continue;
        }
        for (int bi = 0; bi < nb; bi++)
            if (jb >= rows[bi].jlo && jb <= rows[bi].jhi) attn_tile(j, w, &rows[bi], jb, real);
    }
    for (int bi = 0; bi < nb; bi++) {
        const attn_rows *b = &rows[bi];
        for (int r = b->rlo; r < b->rhi; r++) {
            const float l = vf_hsum(b->l[r]), inv = l > 0.0f ? 1.0f / l : 0.0f;   /* no key seen: zeros */
            float *out = j->out + (size_t)(b->i0 + r) * j->ldo + (size_t)h * j->hso;
            const float *o = b->o + (size_t)r * w->Dp;
            const vf vinv = vf_set1(inv);
            int c = 0;
            for (; c + ATT_VW <= j->D; c += ATT_VW) vf_store(out + c, vf_mul(vf_load(o + c), vinv));
            for (; c < j->D; c++) out[c] = o[c] * inv;
        }
    }
}

/* Work items are (head, block of QB*MR queries), in order head by head, and
 * within a head from the last query block (the most keys) to the first, so
 * the cheap ones fill the end. Worker tid owns the tid-th of n equal ranges
 * of items and takes its own one at a time from the range's counter, then
 * helps with the others' ranges the same way: a worker that gets more of
 * the CPU (a shared machine) or cheaper items (short causal rows) simply
 * takes more, and as workers mostly stay in their own heads, each packs a
 * kv head's K and V about once (with one shared counter every worker packed
 * every head: two threads at T = 512 were ~4% slower). Which worker
 * computes an item does not change its result. */
static void attn_part(const att_attn_job *j, int tid, int n)
{
    attn_ws w;
    w.nfp = (j->D + NR - 1) / NR;
    w.Dp = w.nfp * NR;
    w.Sp = (j->S + BC - 1) / BC * BC;
    w.kp = j->scratch + (size_t)tid * j->ws;
    w.vp = w.kp + (size_t)w.Sp * j->D;
    w.st = w.vp + (size_t)w.Sp * w.Dp;
    w.o = w.st + MR * BC;
    w.qp = w.o + (size_t)ATT_QB * MR * w.Dp;
    w.pt = w.qp + (size_t)ATT_QB * MR * j->D;
    const int G = j->H / j->Hkv, nqb = (j->T + ATT_QB * MR - 1) / (ATT_QB * MR);
    const long total = (long)j->H * nqb;
    int packed = -1;
    for (int v = 0; v < n; v++) {
        const int r = (tid + v) % n;
        const long lo = total * r / n, hi = total * (r + 1) / n;
        for (long it; (it = lo + atomic_fetch_add(&j->next[r], 1)) < hi;) {
            const int h = (int)(it / nqb), qb = nqb - 1 - (int)(it % nqb);
            if (h / G != packed) {
                packed = h / G;
                pack_kv(j, &w, packed);
            }
            attn_item(j, &w, h, qb);
        }
    }
}

/* x . y over n floats, in four chains of multiply-adds: one would wait on
 * each one's latency. */
static float vdot(const float *x, const float *y, int n)
{
    vf a0 = vf_zero(), a1 = vf_zero(), a2 = vf_zero(), a3 = vf_zero();
    int i = 0;
    for (; i + 4 * ATT_VW <= n; i += 4 * ATT_VW) {
        a0 = vf_fma(vf_load(x + i), vf_load(y + i), a0);
        a1 = vf_fma(vf_load(x + i + ATT_VW), vf_load(y + i + ATT_VW), a1);
        a2 = vf_fma(vf_load(x + i + 2 * ATT_VW), vf_load(y + i + 2 * ATT_VW), a2);
        a3 = vf_fma(vf_load(x + i + 3 * ATT_VW), vf_load(y + i + 3 * ATT_VW), a3);
    }
    for (; i + ATT_VW <= n; i += ATT_VW) a0 = vf_fma(vf_load(x + i), vf_load(y + i), a0);
    float s = vf_hsum(vf_add(vf_add(a0, a1), vf_add(a2, a3)));
    for (; i < n; i++) s += x[i] * y[i];
    return s;
}

/* ---- decode: one query per head against a long KV cache ----
 * T = 1, the query at position S - 1. The cache is read row by row (all
 * heads of one position are contiguous), once for K and once for V, so it
 * streams at memory bandwidth; the scores of all heads ([H][S], the shared
 * scratch) are small. Worker tid owns a range of heads. */
/* d[u] = q . k[u] for four keys: q is loaded once for the four; and
 * y += sum_u p[u] x[u] over four rows: y is loaded and stored once. Defined
 * for float rows and for int8 rows (exercise 64), widened in registers.
 * ahead: when not 0, the rows that many elements on are asked for from
 * memory meanwhile. One thread's loads alone do not keep enough cache misses
 * in flight to stream a cache at memory bandwidth (decode, shape c of `make
 * bench`, one thread, Zen 4: 6.3 -> 4.8 ms with rows 4 positions ahead; 8 or
 * 16 were slower). The prefetch sits in the loop that loads: gcc 12 dropped
 * it from a loop of prefetches alone. wasm has none: clang drops it there. */
#define PREFETCH4(x, at)                                                         \
    (__builtin_prefetch((x)[0] + (at)), __builtin_prefetch((x)[1] + (at)),       \
     __builtin_prefetch((x)[2] + (at)), __builtin_prefetch((x)[3] + (at)))
#define ATT_DEF_ROWS4(dot, axpy, T, load)                                        \
    static void dot(float *d, const float *q, const T *const *k, int D, size_t ahead) \
    {                                                                            \
        vf a0 = vf_zero(), a1 = vf_zero(), a2 = vf_zero(), a3 = vf_zero();       \
        int c = 0;                                                               \
        for (; c + ATT_VW <= D; c += ATT_VW) {                                   \
            if (ahead) PREFETCH4(k, ahead + c);                                  \
            vf qv = vf_load(q + c);                                              \
            a0 = vf_fma(qv, load(k[0] + c), a0);                                 \
            a1 = vf_fma(qv, load(k[1] + c), a1);                                 \
            a2 = vf_fma(qv, load(k[2] + c), a2);                                 \
            a3 = vf_fma(qv, load(k[3] + c), a3);                                 \
        }                                                                        \
        d[0] = vf_hsum(a0), d[1] = vf_hsum(a1), d[2] = vf_hsum(a2), d[3] = vf_hsum(a3); \
        for (; c < D; c++)                                                       \
            for (int u = 0; u < 4; u++) d[u] += q[c] * (float)k[u][c];           \
    }                                                                            \
    static void axpy(float *y, const float *p, const T *const *x, int D, size_t ahead) \
    {                                                                            \
        vf p0 = vf_set1(p[0]), p1 = vf_set1(p[1]), p2 = vf_set1(p[2]), p3 = vf_set1(p[3]); \
        int c = 0;                                                               \
        for (; c + ATT_VW <= D; c += ATT_VW) {                                   \
            if (ahead) PREFETCH4(x, ahead + c);                                  \
            vf t = vf_fma(p0, load(x[0] + c), vf_load(y + c));                   \
            t = vf_fma(p1, load(x[1] + c), t);                                   \
            t = vf_fma(p2, load(x[2] + c), t);                                   \
            vf_store(y + c, vf_fma(p3, load(x[3] + c), t));                      \
        }                                                                        \
        for (; c < D; c++)                                                       \
            y[c] += p[0] * (float)x[0][c] + p[1] * (float)x[1][c] + p[2] * (float)x[2][c] + \
                    p[3] * (float)x[3][c];                                       \
    }
ATT_DEF_ROWS4(dot4, axpy4, float, vf_load)
ATT_DEF_ROWS4(dot4_i8, axpy4_i8, signed char, vf_load_i8)

/* Keys go four at a time, the last 0-3 padded with a repeat of a valid
 * key whose weight is forced to 0 (its score to -inf), so there is one code
 * path (but for the scores on wasm, below). */
static void decode_part(const att_attn_job *j, int tid, int n)
{
    const int S = j->S, D = j->D, G = j->H / j->Hkv;
    const int h0 = j->H * tid / n, h1 = j->H * (tid + 1) / n;
    const int jlo = j->window > 0 ? imax(0, S - j->window) : 0, nk = S - jlo;
    float *sc = j->scratch;   /* [H][S] */
    /* 4 positions on (see ATT_DEF_ROWS4), while there are any */
    const size_t ahead = (size_t)4 * j->ldkv;
#ifdef __wasm__
    /* Without a prefetch the keys go one at a time, in memory order: the
     * hardware then sees one stream instead of four (decode, shape c of
     * `make bench`, wasm, Zen 5, medians alternating with the old build:
     * 7.8-8.4 -> 7.2-7.9 ms; natively, with the prefetch, four at a time
     * stayed faster, 5.0 against 5.7 ms). */
    for (int s = jlo; s < S; s++) {
        const float *kr = j->k + (size_t)s * j->ldkv;
        const int real = !j->key_mask || j->key_mask[s];
        for (int h = h0; h < h1; h++)
            sc[(size_t)h * S + s] =
                real ? vdot(j->q + (size_t)h * j->hsq, kr + (size_t)(h / G) * j->hskv, D) * j->scale : -INFINITY;
    }
#else
    for (int s = jlo; s < S; s += 4) {
        const float *krow[4];
        int real[4];
        for (int u = 0; u < 4; u++) {
            const int key = imin(s + u, S - 1);
            krow[u] = j->k + (size_t)key * j->ldkv;
            real[u] = s + u < S && (!j->key_mask || j->key_mask[key]);
        }
        for (int h = h0; h < h1; h++) {
            const size_t off = (size_t)(h / G) * j->hskv;
            const float *k4[4] = { krow[0] + off, krow[1] + off, krow[2] + off, krow[3] + off };
            float d[4];
            dot4(d, j->q + (size_t)h * j->hsq, k4, D, s + 7 < S ? ahead : 0);
            for (int u = 0; u < 4 && s + u < S; u++)
                sc[(size_t)h * S + s + u] = real[u] ? d[u] * j->scale : -INFINITY;
        }
    }
#endif
    float inv[64];   /* 1 / sum per head, heads taken 64 at a time */
    for (int hc = h0; hc < h1; hc += 64) {
        const int he = imin(h1, hc + 64);
        for (int h = hc; h < he; h++) {
            float *p = sc + (size_t)h * S + jlo;
            vf mx = vf_set1(-INFINITY);
            int c = 0;
            for (; c + ATT_VW <= nk; c += ATT_VW) mx = vf_max(mx, vf_load(p + c));
            float m = vf_hmax(mx);
            for (; c < nk; c++) m = fmaxf(m, p[c]);
            float sum = 0.0f;
            if (m == -INFINITY) memset(p, 0, (size_t)nk * sizeof *p);
            else {
                for (c = 0; c < nk; c++) p[c] -= m;
                exp_array(p, p, (size_t)nk);
                for (c = 0; c < nk; c++) sum += p[c];
            }
            inv[h - hc] = sum > 0.0f ? 1.0f / sum : 0.0f;
            memset(j->out + (size_t)h * j->hso, 0, (size_t)D * sizeof(float));
        }
        for (int s = jlo; s < S; s += 4) {
            const float *vrow[4];
            for (int u = 0; u < 4; u++) vrow[u] = j->v + (size_t)imin(s + u, S - 1) * j->ldkv;
            for (int h = hc; h < he; h++) {
                const float *ph = sc + (size_t)h * S;
                float p[4];
                for (int u = 0; u < 4; u++) p[u] = s + u < S ? ph[s + u] : 0.0f;
                if (p[0] == 0.0f && p[1] == 0.0f && p[2] == 0.0f && p[3] == 0.0f) continue;
                const size_t off = (size_t)(h / G) * j->hskv;
                const float *v4[4] = { vrow[0] + off, vrow[1] + off, vrow[2] + off, vrow[3] + off };
                axpy4(j->out + (size_t)h * j->hso, p, v4, D, s + 7 < S ? ahead : 0);
            }
        }
        for (int h = hc; h < he; h++)
            for (int c = 0; c < D; c++) j->out[(size_t)h * j->hso + c] *= inv[h - hc];
    }
}

/* p[0 .. n) replaced by its softmax, n >= 1 and every p finite (the
 * decode-like kernels below: the max's own term is 1, so the sum is >= 1). */
static void softmax_row(float *p, int n)
{
    vf mx = vf_set1(-INFINITY);
    int c = 0;
    for (; c + ATT_VW <= n; c += ATT_VW) mx = vf_max(mx, vf_load(p + c));
    float m = vf_hmax(mx), sum = 0.0f;
    for (; c < n; c++) m = fmaxf(m, p[c]);
    for (c = 0; c < n; c++) p[c] -= m;
    exp_array(p, p, (size_t)n);
    for (c = 0; c < n; c++) sum += p[c];
    const float inv = 1.0f / sum;
    for (c = 0; c < n; c++) p[c] *= inv;
}

/* ---- paged decode: one query per head over a paged KV cache ----
 * As decode: per sequence the keys are read once, a row of all kv heads at
 * a time (Hkv * D contiguous floats through the block table, four rows at
 * a time, the last 0-3 repeating the last key), each kv head for the G = H
 * / Hkv query heads of its group; worker tid owns a range of kv heads, and
 * the scores of a sequence ([H][S], S = max_blocks * block_size) are the
 * shared scratch, each worker writing its heads' rows. Taken a (sequence,
 * kv head) at a time instead, every key was a read Hkv * D floats past the
 * last: with 8 kv heads of 128, a page apart, at a few GB/s. Every sequence
 * has a key (att_paged_check). */
static const float *paged_row(const att_paged_job *j, const float *cache, const int *table, int p)
{
    const size_t row = (size_t)table[p / j->block_size] * j->block_size + (size_t)(p % j->block_size);
    return cache + row * j->Hkv * j->D;
}

static void paged_part(const att_paged_job *j, int tid, int n)
{
    const int G = j->H / j->Hkv, D = j->D, S = j->max_blocks * j->block_size;
    const int g0 = j->Hkv * tid / n, g1 = j->Hkv * (tid + 1) / n;
    float *sc = j->scratch;
    for (int b = 0; b < j->B; b++) {
        const int nk = j->seq_lens[b], *table = j->block_table + (size_t)b * j->max_blocks;
        const float *q = j->q + (size_t)b * j->H * D;
        float *out = j->out + (size_t)b * j->H * D;
        for (int s = 0; s < nk; s += 4) {
            const float *krow[4];
            for (int u = 0; u < 4; u++) krow[u] = paged_row(j, j->k_cache, table, imin(s + u, nk - 1));
            for (int g = g0; g < g1; g++) {
                const size_t off = (size_t)g * D;
                const float *k4[4] = { krow[0] + off, krow[1] + off, krow[2] + off, krow[3] + off };
                for (int h = g * G; h < (g + 1) * G; h++) {
                    float d[4];
                    dot4(d, q + (size_t)h * D, k4, D, 0);
                    for (int u = 0; u < 4 && s + u < nk; u++) sc[(size_t)h * S + s + u] = d[u] * j->scale;
                }
            }
        }
        for (int h = g0 * G; h < g1 * G; h++) {
            softmax_row(sc + (size_t)h * S, nk);
            memset(out + (size_t)h * D, 0, (size_t)D * sizeof(float));
        }
        for (int s = 0; s < nk; s += 4) {
            const float *vrow[4];
            for (int u = 0; u < 4; u++) vrow[u] = paged_row(j, j->v_cache, table, imin(s + u, nk - 1));
            for (int g = g0; g < g1; g++) {
                const size_t off = (size_t)g * D;
                const float *v4[4] = { vrow[0] + off, vrow[1] + off, vrow[2] + off, vrow[3] + off };
                for (int h = g * G; h < (g + 1) * G; h++) {
                    float p[4];
                    for (int u = 0; u < 4; u++) p[u] = s + u < nk ? sc[(size_t)h * S + s + u] : 0.0f;
                    axpy4(out + (size_t)h * D, p, v4, D, 0);
                }
            }
        }
    }
}

/* ---- decode over an int8 KV cache (exercise 64) ----
 * As decode above: per sequence the cache is read in memory order, a row
 * of all heads at a time (four keys at once), worker tid owning a range of
 * heads. Taken a (sequence, head) at a time instead, every key was a read
 * 4 KiB (one row of H = 32 heads) past the last, a page apart: the step ran
 * at about 0.5 GB/s on a loaded machine. The int8 rows are widened to float
 * in registers and the row's scale applied once per key, outside the dot
 * product: s * (q . q8) and p * s * q8 are the dequantised row's products up
 * to float rounding. The weights are normalised before the sum over V. */
static void decode_i8_part(const att_int8_job *j, int tid, int n)
{
    const int H = j->H, D = j->D, S_max = j->S_max, h0 = H * tid / n, h1 = H * (tid + 1) / n;
    const size_t row = (size_t)H * D;
    for (int b = 0; b < j->B; b++) {
        const int keys = j->keys[b];
        const size_t seq = (size_t)b * S_max;
        const float *ks = j->k_scale + seq * H, *vs = j->v_scale + seq * H;
        float *sc = j->scratch + seq * H;   /* [H][S_max]: this sequence's scores */
        for (int s = 0; s < keys; s += 4) {
            const signed char *krow[4];
            for (int u = 0; u < 4; u++) krow[u] = j->k_q + (seq + (size_t)imin(s + u, keys - 1)) * row;
            for (int h = h0; h < h1; h++) {
                const signed char *k4[4] = { krow[0] + (size_t)h * D, krow[1] + (size_t)h * D,
                                             krow[2] + (size_t)h * D, krow[3] + (size_t)h * D };
                float d[4];
                dot4_i8(d, j->q + ((size_t)b * H + h) * D, k4, D, 0);
                for (int u = 0; u < 4 && s + u < keys; u++)
                    sc[(size_t)h * S_max + s + u] = d[u] * ks[(size_t)(s + u) * H + h] * j->scale;
            }
        }
        for (int h = h0; h < h1; h++) {
            float *p = sc + (size_t)h * S_max;
            softmax_row(p, keys);
            for (int c = 0; c < keys; c++) p[c] *= vs[(size_t)c * H + h];
            memset(j->out + ((size_t)b * H + h) * D, 0, (size_t)D * sizeof(float));
        }
        for (int s = 0; s < keys; s += 4) {
            const signed char *vrow[4];
            for (int u = 0; u < 4; u++) vrow[u] = j->v_q + (seq + (size_t)imin(s + u, keys - 1)) * row;
            for (int h = h0; h < h1; h++) {
                const signed char *v4[4] = { vrow[0] + (size_t)h * D, vrow[1] + (size_t)h * D,
                                             vrow[2] + (size_t)h * D, vrow[3] + (size_t)h * D };
                float p[4];
                for (int u = 0; u < 4; u++) p[u] = s + u < keys ? sc[(size_t)h * S_max + s + u] : 0.0f;
                axpy4_i8(j->out + ((size_t)b * H + h) * D, p, v4, D, 0);
            }
        }
    }
}

/* ---- MLA decode, absorbed: queries against latents shared by the heads ----
 * Worker tid owns a range of heads, taken ATT_MLA_HEADS at a time for each
 * sequence, so the latent and rotary caches are read once per chunk of
 * heads, four keys at a time for every head of the chunk (dot4, axpy4, as in
 * decode), not once per head: a (batch, head) at a time, each head read
 * the whole latent cache again with one dependent chain of multiply-adds
 * per key, at about a tenth of the machine's multiply-add rate. Every other
 * vector runs along a contiguous row: a row of W_UK against q_nope (q_lat),
 * a row of W_UV scaled into the output. The weights are normalised before
 * the sum over the latents. */
/* y += a x over n floats. */
static void vaxpy(float *y, float a, const float *x, int n)
{
    vf av = vf_set1(a);
    int i = 0;
    for (; i + ATT_VW <= n; i += ATT_VW) vf_store(y + i, vf_fma(av, vf_load(x + i), vf_load(y + i)));
    for (; i < n; i++) y[i] += a * x[i];
}

static void mla_part(const att_mla_job *j, int tid, int n)
{
    const int H = j->H, S = j->S, d_c = j->d_c, d_nope = j->d_nope, d_r = j->d_r, d_v = j->d_v;
    const int h0 = H * tid / n, h1 = H * (tid + 1) / n;
    float *q_lat = j->scratch + (size_t)tid * j->ws, *o_lat = q_lat + (size_t)ATT_MLA_HEADS * d_c;
    float *sc = o_lat + (size_t)ATT_MLA_HEADS * d_c;   /* [ATT_MLA_HEADS][S] */
    for (int b = 0; b < j->B; b++) {
        const int len = j->len[b];
        const float *cb = j->c + (size_t)b * S * d_c, *kb = j->k_pe + (size_t)b * S * d_r;
        for (int hc = h0; hc < h1; hc += ATT_MLA_HEADS) {
            const int nh = imin(h1 - hc, ATT_MLA_HEADS);
            for (int i = 0; i < nh; i++)
                for (int l = 0; l < d_c; l++)
                    q_lat[(size_t)i * d_c + l] = vdot(j->w_uk + ((size_t)(hc + i) * d_c + l) * d_nope,
                                                      j->q_nope + ((size_t)b * H + hc + i) * d_nope, d_nope);
            for (int t = 0; t < len; t += 4) {
                const float *c4[4], *k4[4];
                for (int u = 0; u < 4; u++) {
                    const size_t key = (size_t)imin(t + u, len - 1);
                    c4[u] = cb + key * d_c;
                    k4[u] = kb + key * d_r;
                }
                for (int i = 0; i < nh; i++) {
                    float d[4], e[4];
                    dot4(d, q_lat + (size_t)i * d_c, c4, d_c, 0);
                    dot4(e, j->q_pe + ((size_t)b * H + hc + i) * d_r, k4, d_r, 0);
                    for (int u = 0; u < 4 && t + u < len; u++) sc[(size_t)i * S + t + u] = (d[u] + e[u]) * j->scale;
                }
            }
            for (int i = 0; i < nh; i++) {
                softmax_row(sc + (size_t)i * S, len);
                memset(o_lat + (size_t)i * d_c, 0, (size_t)d_c * sizeof *o_lat);
            }
            for (int t = 0; t < len; t += 4) {
                const float *c4[4];
                for (int u = 0; u < 4; u++) c4[u] = cb + (size_t)imin(t + u, len - 1) * d_c;
                for (int i = 0; i < nh; i++) {
                    float p[4];
                    for (int u = 0; u < 4; u++) p[u] = t + u < len ? sc[(size_t)i * S + t + u] : 0.0f;
                    axpy4(o_lat + (size_t)i * d_c, p, c4, d_c, 0);
                }
            }
            for (int i = 0; i < nh; i++) {
                const float *uv = j->w_uv + (size_t)(hc + i) * d_c * d_v, *ol = o_lat + (size_t)i * d_c;
                float *o = j->out + ((size_t)b * H + hc + i) * d_v;
                memset(o, 0, (size_t)d_v * sizeof *o);
                for (int l = 0; l < d_c; l++) vaxpy(o, ol[l], uv + (size_t)l * d_v, d_v);
            }
        }
    }
}

/* ---- the backward pass, FlashAttention-2's way (exercises 65 and 66) ----
 * A work item is one (batch, head). Keys go outer, in blocks of KB (whole
 * register tiles of MR keys), queries inner, in blocks of BC. Per pair of
 * blocks the tiles are made transposed, keys as the register tile's rows:
 *   S^T = K Q^T (Q^T pre-scaled), P^T = exp(S^T - lse), dP^T = V dO^T,
 *   dS^T = scale P^T o (dP^T - D), D_i = dO_i . out_i,
 *   dV += P^T dO, dK += dS^T Q, dQ += dS K,
 * so that lse and D run along a vector of queries, and dS^T is transposed
 * once (for dQ) where S would have needed P and dS both transposed; the
 * scale is folded into dS once for dK and dQ. dK and dV of a key block stay
 * in the worker's accumulators over its query blocks, dQ of the head over
 * the key blocks. Per head Q^T and dO^T are packed as panels [D][NR], Q, dO
 * and K as feature panels [rows][NR]. With causal, the query blocks that
 * see none of a key block are never visited, and inside the others each
 * key's row is cleared left of its first query. */
#define KB (BC / MR * MR)

typedef struct {
    float *qt, *gt, *qf, *gf, *kf, *dqa, *ls, *dl, *ka, *va, *st, *dp, *pa, *dka, *dva;
    int Tn, Dp, nfp;
} bwd_ws;

/* x [rows][D] as feature panels [nfp][rows][NR], zero past D. */
static void pack_features(float *dst, const float *x, int rows, int D, int nfp)
{
    for (int f = 0; f < nfp; f++) {
        const int nc = imin(NR, D - f * NR);
        for (int r = 0; r < rows; r++) {
            float *d = dst + ((size_t)f * rows + r) * NR;
            const float *s = x + (size_t)r * D + f * NR;
            if (nc == NR)
                for (int c = 0; c < NR; c += ATT_VW) vf_store(d + c, vf_load(s + c));
            else
                for (int c = 0; c < NR; c++) d[c] = c < nc ? s[c] : 0.0f;
        }
    }
}

/* Rows 0 .. rows-1 of x^T (x [K][ld]: a[r][k] = x[k * ld + r]) as
 * tile_attn_t reads a block of MR rows: x itself when all MR rows are real,
 * else a copy in dst ([K][MR]) zero past rows. *lda gets the stride to pass
 * on. (Transposed into block_a's layout instead, dQ's copy was a fifth of
 * the backward's time outside the multiply-adds natively.) */
static const float *block_at(float *dst, const float *x, size_t ld, int rows, int K, size_t *lda)
{
    *lda = ld;
    if (rows == MR) return x;
    for (int k = 0; k < K; k++)
        for (int r = 0; r < MR; r++) dst[(size_t)k * MR + r] = r < rows ? x[(size_t)k * ld + r] : 0.0f;
    *lda = MR;
    return dst;
}

/* P^T and dS^T of one pair of blocks, in place of S^T (st) and dP^T (dp):
 * nk keys from j0, nq queries from i0, whole NR panels wide (the columns
 * past nq are made and never read). Key j's row is cleared left of its
 * first query (causal), whose column lo the vector loop starts just below. */
static void bwd_probs(const att_bwd_job *j, const bwd_ws *w, int j0, int nk, int i0, int nq)
{
    const int width = (nq + NR - 1) / NR * NR, off = j->S - j->T;
    const vf sc = vf_set1(j->scale);
    for (int r = 0; r < nk; r++) {
        float *s = w->st + (size_t)r * BC, *d = w->dp + (size_t)r * BC;
        const int lo = j->causal ? imin(nq, imax(0, j0 + r - off - i0)) : 0;
        for (int c = lo / ATT_VW * ATT_VW; c < width; c += ATT_VW) {
            const vf p = vexp(vf_sub(vf_load(s + c), vf_load(w->ls + i0 + c)));
            vf_store(s + c, p);
            vf_store(d + c, vf_mul(vf_mul(p, sc), vf_sub(vf_load(d + c), vf_load(w->dl + i0 + c))));
        }
        for (int c = 0; c < lo; c++) s[c] = d[c] = 0.0f;
    }
}

/* Key block j0 against query block i0: the five products. */
static void bwd_tile(const att_bwd_job *j, const bwd_ws *w, const float *const *kab,
                     const float *const *vab, size_t lkv, int j0, int nk, int i0, int nq)
{
    const int D = j->D, nkb = (nk + MR - 1) / MR, np = (nq + NR - 1) / NR;
    for (int b = 0; b < nkb; b++)
        for (int p = 0; p < np; p++) {
            const size_t panel = (size_t)(i0 / NR + p) * D * NR, at = (size_t)b * MR * BC + p * NR;
            tile_attn(w->st + at, BC, kab[b], lkv, w->qt + panel, D, 0);
            tile_attn(w->dp + at, BC, vab[b], lkv, w->gt + panel, D, 0);
        }
    bwd_probs(j, w, j0, nk, i0, nq);
    for (int b = 0; b < nkb; b++) {
        const int rows = imin(MR, nk - b * MR);
        size_t la;
        const float *pa = block_a(w->pa, w->st + (size_t)b * MR * BC, BC, rows, nq, &la);
        for (int f = 0; f < w->nfp; f++)
            tile_attn(w->dva + (size_t)b * MR * w->Dp + f * NR, w->Dp, pa, la,
                      w->gf + ((size_t)f * j->T + i0) * NR, nq, 1);
        const float *da = block_a(w->pa, w->dp + (size_t)b * MR * BC, BC, rows, nq, &la);
        for (int f = 0; f < w->nfp; f++)
            tile_attn(w->dka + (size_t)b * MR * w->Dp + f * NR, w->Dp, da, la,
                      w->qf + ((size_t)f * j->T + i0) * NR, nq, 1);
    }
    for (int r0 = 0; r0 < nq; r0 += MR) {
        size_t la;
        const float *da = block_at(w->pa, w->dp + r0, BC, imin(MR, nq - r0), nk, &la);
        for (int f = 0; f < w->nfp; f++)
            tile_attn_t(w->dqa + (size_t)(i0 + r0) * w->Dp + f * NR, w->Dp, da, la,
                        w->kf + ((size_t)f * j->S + j0) * NR, nk, 1);
    }
}

/* rows rows of D floats from acc (row stride ld) to out (row stride D). */
static void bwd_store(float *out, const float *acc, size_t ld, int rows, int D)
{
    for (int r = 0; r < rows; r++) memcpy(out + (size_t)r * D, acc + (size_t)r * ld, (size_t)D * sizeof *out);
}

static void bwd_head(const att_bwd_job *j, const bwd_ws *w, size_t bh)
{
    const int T = j->T, S = j->S, D = j->D, off = S - T;
    const size_t td = (size_t)T * D, sd = (size_t)S * D;
    const float *q = j->q + bh * td, *g = j->dout + bh * td, *o = j->out + bh * td;
    const float *k = j->k + bh * sd, *v = j->v + bh * sd, *lse = j->lse + bh * T;
    pack_rows_t(w->qt, q, (size_t)D, T, D, j->scale);
    pack_rows_t(w->gt, g, (size_t)D, T, D, 1.0f);
    pack_features(w->qf, q, T, D, w->nfp);
    pack_features(w->gf, g, T, D, w->nfp);
    pack_features(w->kf, k, S, D, w->nfp);
    /* Padding queries get lse = D = 0: finite columns no product reads. */
    for (int i = 0; i < w->Tn; i++) {
        w->ls[i] = i < T ? lse[i] : 0.0f;
        w->dl[i] = i < T ? vdot(g + (size_t)i * D, o + (size_t)i * D, D) : 0.0f;
    }
    memset(w->dqa, 0, (size_t)(T + MR) * w->Dp * sizeof(float));
    for (int j0 = 0; j0 < S; j0 += KB) {
        const int nk = imin(KB, S - j0), nkb = (nk + MR - 1) / MR;
        memset(w->dka, 0, (size_t)KB * w->Dp * sizeof(float));
        memset(w->dva, 0, (size_t)KB * w->Dp * sizeof(float));
        const float *kab[KB / MR], *vab[KB / MR];
        size_t lkv = 0;   /* the same for K and V: both are [S][D] */
        for (int b = 0; b < nkb; b++) {
            const int rows = imin(MR, nk - b * MR);
            const size_t row = (size_t)(j0 + b * MR) * D;
            kab[b] = block_a(w->ka + (size_t)b * MR * D, k + row, (size_t)D, rows, D, &lkv);
            vab[b] = block_a(w->va + (size_t)b * MR * D, v + row, (size_t)D, rows, D, &lkv);
        }
        /* The first query that sees key j0; none at all past T. */
        const int ifirst = j->causal ? imax(0, j0 - off) : 0;
        for (int i0 = ifirst / BC * BC; i0 < T; i0 += BC)
            bwd_tile(j, w, kab, vab, lkv, j0, nk, i0, imin(BC, T - i0));
        bwd_store(j->dk + bh * sd + (size_t)j0 * D, w->dka, (size_t)w->Dp, nk, D);
        bwd_store(j->dv + bh * sd + (size_t)j0 * D, w->dva, (size_t)w->Dp, nk, D);
    }
    bwd_store(j->dq + bh * td, w->dqa, (size_t)w->Dp, T, D);
}

/* The worker's scratch in this width's sizes; att_fast_backward.c sizes ws
 * with the bounds of every width (ATT_MR_MAX, ATT_NR_MAX, KB <= BC). */
static void backward_part(const att_bwd_job *j, int tid, int n)
{
    (void)n;
    const int T = j->T, S = j->S, D = j->D;
    bwd_ws w;
    w.nfp = (D + NR - 1) / NR;
    w.Dp = w.nfp * NR;
    w.Tn = (T + NR - 1) / NR * NR;
    w.qt = j->scratch + (size_t)tid * j->ws;
    w.gt = w.qt + (size_t)w.Tn * D;
    w.qf = w.gt + (size_t)w.Tn * D;
    w.gf = w.qf + (size_t)T * w.Dp;
    w.kf = w.gf + (size_t)T * w.Dp;
    w.dqa = w.kf + (size_t)S * w.Dp;
    w.ls = w.dqa + (size_t)(T + MR) * w.Dp;
    w.dl = w.ls + w.Tn;
    w.ka = w.dl + w.Tn;
    w.va = w.ka + (size_t)KB * D;
    w.st = w.va + (size_t)KB * D;
    w.dp = w.st + (size_t)KB * BC;
    w.pa = w.dp + (size_t)KB * BC;
    w.dka = w.pa + (size_t)MR * BC;
    w.dva = w.dka + (size_t)KB * w.Dp;
    for (long it; (it = atomic_fetch_add(j->next, 1)) < (long)j->B * j->H;) bwd_head(j, &w, (size_t)it);
}

const att_kernels ATT_TABLE = {
    ATT_NAME, ATT_LEVEL, ATT_SIMD_NATIVE, ATT_SIMD_REAL, MR, NR,
    gemm_part, attn_part, decode_part, exp_array, paged_part, decode_i8_part, mla_part,
    backward_part,
};
