/* att_simd.h: the one SIMD layer. The only file in the project that includes
 * SIMDe; the kernels (core/att_kern.h) are written against the vf_* and vi_*
 * names below and contain no intrinsics.
 *
 * The includer chooses the vector width before including this file:
 *   ATT_VW 16  AVX-512 API (native with -mavx512f, else SIMDe emulates it)
 *   ATT_VW 8   AVX2 + FMA API (native with -mavx2 -mfma)
 *   ATT_VW 4   SSE + FMA API: SSE natively, SIMD128 under Emscripten
 *              -msimd128, NEON on Arm, plain C with SIMDE_NO_NATIVE.
 * One source therefore becomes real SIMD on every target; a width that the
 * build does not support natively still compiles and runs, emulated.
 *
 * ATT_SIMD_NATIVE is 2 when this width runs on native AVX-512 instructions,
 * 1 on native AVX2/FMA, 0 otherwise: the dispatcher checks the CPU for it.
 *
 * Not here: loops, tails, anything about attention. Every op is lane-wise
 * IEEE float32 (no -ffast-math: SIMDe's NaN handling depends on it), except
 * vf_fma, which is fused where the CPU has FMA and a multiply then an add
 * elsewhere (see below). */
#ifndef ATT_SIMD_H
#define ATT_SIMD_H

#include <stdint.h>
#include <string.h>
#include <simde/x86/fma.h>
#include <simde/x86/avx2.h>
#include <simde/x86/avx512.h>

#if ATT_VW == 16
typedef simde__m512 vf;
typedef simde__m512i vi;
#define vf_load(p) simde_mm512_loadu_ps(p)
#define vf_store(p, a) simde_mm512_storeu_ps((p), (a))
#define vf_set1(x) simde_mm512_set1_ps(x)
#define vf_zero() simde_mm512_setzero_ps()
#define vf_add(a, b) simde_mm512_add_ps((a), (b))
#define vf_sub(a, b) simde_mm512_sub_ps((a), (b))
#define vf_mul(a, b) simde_mm512_mul_ps((a), (b))
#define vf_max(a, b) simde_mm512_max_ps((a), (b))
#define vf_min(a, b) simde_mm512_min_ps((a), (b))
#define vf_fma(a, b, c) simde_mm512_fmadd_ps((a), (b), (c))
/* x >= t ? y : +0 lane-wise (false for NaN). */
#define vf_sel_ge(x, t, y) \
    simde_mm512_maskz_mov_ps(simde_mm512_cmp_ps_mask((x), (t), SIMDE_CMP_GE_OQ), (y))
#define vf_bits(a) simde_mm512_castps_si512(a)
#define vi_float(a) simde_mm512_castsi512_ps(a)
#define vi_set1(x) simde_mm512_set1_epi32(x)
#define vi_add(a, b) simde_mm512_add_epi32((a), (b))
#define vi_sub(a, b) simde_mm512_sub_epi32((a), (b))
#define vi_shl(a, n) simde_mm512_slli_epi32((a), (n))
/* The 128-bit quarters, for the horizontal reductions below. */
/* 16 int8 at p (unaligned) as 16 floats, as two halves of 8 (SIMDe has no
 * 512-bit int8 or int32 to float conversion to emulate). */
static inline vf vf_load_i8(const signed char *p)
{
    simde__m256 lo = simde_mm256_cvtepi32_ps(simde_mm256_cvtepi8_epi32(simde_mm_loadl_epi64((const simde__m128i *)(const void *)p)));
    simde__m256 hi = simde_mm256_cvtepi32_ps(simde_mm256_cvtepi8_epi32(simde_mm_loadl_epi64((const simde__m128i *)(const void *)(p + 8))));
    return simde_mm512_insertf32x8(simde_mm512_castps256_ps512(lo), hi, 1);
}
#define vf_q(a, i) simde_mm512_extractf32x4_ps((a), (i))
#define vf_quarter_sum(a) \
    simde_mm_add_ps(simde_mm_add_ps(vf_q(a, 0), vf_q(a, 1)), simde_mm_add_ps(vf_q(a, 2), vf_q(a, 3)))
#define vf_quarter_max(a) \
    simde_mm_max_ps(simde_mm_max_ps(vf_q(a, 0), vf_q(a, 1)), simde_mm_max_ps(vf_q(a, 2), vf_q(a, 3)))
#if defined(SIMDE_X86_AVX512F_NATIVE)
#define ATT_SIMD_NATIVE 2
#endif

#elif ATT_VW == 8
typedef simde__m256 vf;
typedef simde__m256i vi;
#define vf_load(p) simde_mm256_loadu_ps(p)
#define vf_store(p, a) simde_mm256_storeu_ps((p), (a))
#define vf_set1(x) simde_mm256_set1_ps(x)
#define vf_zero() simde_mm256_setzero_ps()
#define vf_add(a, b) simde_mm256_add_ps((a), (b))
#define vf_sub(a, b) simde_mm256_sub_ps((a), (b))
#define vf_mul(a, b) simde_mm256_mul_ps((a), (b))
#define vf_max(a, b) simde_mm256_max_ps((a), (b))
#define vf_min(a, b) simde_mm256_min_ps((a), (b))
#define vf_fma(a, b, c) simde_mm256_fmadd_ps((a), (b), (c))
#define vf_sel_ge(x, t, y) \
    simde_mm256_and_ps(simde_mm256_cmp_ps((x), (t), SIMDE_CMP_GE_OQ), (y))
#define vf_bits(a) simde_mm256_castps_si256(a)
#define vi_float(a) simde_mm256_castsi256_ps(a)
#define vi_set1(x) simde_mm256_set1_epi32(x)
#define vi_add(a, b) simde_mm256_add_epi32((a), (b))
#define vi_sub(a, b) simde_mm256_sub_epi32((a), (b))
#define vi_shl(a, n) simde_mm256_slli_epi32((a), (n))
/* 8 int8 at p (unaligned) as 8 floats. */
#define vf_load_i8(p) \
    simde_mm256_cvtepi32_ps(simde_mm256_cvtepi8_epi32(simde_mm_loadl_epi64((const simde__m128i *)(const void *)(p))))
#define vf_quarter_sum(a) \
    simde_mm_add_ps(simde_mm256_castps256_ps128(a), simde_mm256_extractf128_ps((a), 1))
#define vf_quarter_max(a) \
    simde_mm_max_ps(simde_mm256_castps256_ps128(a), simde_mm256_extractf128_ps((a), 1))
#if defined(SIMDE_X86_AVX2_NATIVE) && defined(SIMDE_X86_FMA_NATIVE)
#define ATT_SIMD_NATIVE 1
#endif

#elif ATT_VW == 4
typedef simde__m128 vf;
typedef simde__m128i vi;
#define vf_load(p) simde_mm_loadu_ps(p)
#define vf_store(p, a) simde_mm_storeu_ps((p), (a))
#define vf_set1(x) simde_mm_set1_ps(x)
#define vf_zero() simde_mm_setzero_ps()
#define vf_add(a, b) simde_mm_add_ps((a), (b))
#define vf_sub(a, b) simde_mm_sub_ps((a), (b))
#define vf_mul(a, b) simde_mm_mul_ps((a), (b))
#define vf_max(a, b) simde_mm_max_ps((a), (b))
#define vf_min(a, b) simde_mm_min_ps((a), (b))
#define vf_fma(a, b, c) simde_mm_fmadd_ps((a), (b), (c))
#define vf_sel_ge(x, t, y) simde_mm_and_ps(simde_mm_cmpge_ps((x), (t)), (y))
#define vf_bits(a) simde_mm_castps_si128(a)
#define vi_float(a) simde_mm_castsi128_ps(a)
#define vi_set1(x) simde_mm_set1_epi32(x)
#define vi_add(a, b) simde_mm_add_epi32((a), (b))
#define vi_sub(a, b) simde_mm_sub_epi32((a), (b))
#define vi_shl(a, n) simde_mm_slli_epi32((a), (n))
#define vf_quarter_sum(a) (a)
#define vf_quarter_max(a) (a)
/* 4 int8 at p (unaligned) as 4 floats: the 4 bytes go through an int, as
 * the narrowest load there is. */
static inline vf vf_load_i8(const signed char *p)
{
    int32_t x;
    memcpy(&x, p, sizeof x);
    return simde_mm_cvtepi32_ps(simde_mm_cvtepi8_epi32(simde_mm_cvtsi32_si128(x)));
}

#else
#error "define ATT_VW as 16, 8 or 4 before including att_simd.h"
#endif

#ifndef ATT_SIMD_NATIVE
#define ATT_SIMD_NATIVE 0
#endif

/* ATT_SIMD_REAL: this width runs on real vector instructions (native x86,
 * SIMD128 in wasm, NEON), not SIMDe's portable C. For reports only. */
#if ATT_SIMD_NATIVE || (ATT_VW == 4 && (defined(SIMDE_X86_SSE2_NATIVE) ||             \
                                        defined(SIMDE_WASM_SIMD128_NATIVE) ||         \
                                        defined(SIMDE_ARM_NEON_A32V7_NATIVE)))
#define ATT_SIMD_REAL 1
#else
#define ATT_SIMD_REAL 0
#endif

/* Where the target has no fused multiply-add instruction (SIMD128, SSE2,
 * SIMDe's portable C), SIMDe's fmadd falls back to a lane loop that may call
 * libm's fmaf, which is slow in software (0.3 GFLOP/s in wasm): a multiply
 * and an add are what that hardware does well, so use them. */
#if !defined(SIMDE_X86_FMA_NATIVE) && !defined(SIMDE_ARM_NEON_A32V7_NATIVE)
#undef vf_fma
#define vf_fma(a, b, c) vf_add(vf_mul((a), (b)), (c))
#endif

/* Four rows of 4 floats (at p, p + ld, p + 2 ld, p + 3 ld), transposed and
 * times s: out + i * ldo gets element i of each row. In 128-bit registers at
 * every width (SSE, SIMD128, NEON): packing a matrix transposed went one
 * float at a time, ~2.5 cycles each, 4.5x slower. */
static inline void t4_scaled(float *out, size_t ldo, const float *p, size_t ld, float s)
{
    simde__m128 r0 = simde_mm_loadu_ps(p), r1 = simde_mm_loadu_ps(p + ld);
    simde__m128 r2 = simde_mm_loadu_ps(p + 2 * ld), r3 = simde_mm_loadu_ps(p + 3 * ld);
    SIMDE_MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    const simde__m128 sc = simde_mm_set1_ps(s);
    simde_mm_storeu_ps(out, simde_mm_mul_ps(r0, sc));
    simde_mm_storeu_ps(out + ldo, simde_mm_mul_ps(r1, sc));
    simde_mm_storeu_ps(out + 2 * ldo, simde_mm_mul_ps(r2, sc));
    simde_mm_storeu_ps(out + 3 * ldo, simde_mm_mul_ps(r3, sc));
}

/* Horizontal sum and max of one vector: fold to 128 bits, then 4 -> 1. */
static inline float vf_hsum(vf a)
{
    simde__m128 q = vf_quarter_sum(a);
    q = simde_mm_add_ps(q, simde_mm_movehl_ps(q, q));
    q = simde_mm_add_ss(q, simde_mm_shuffle_ps(q, q, 1));
    return simde_mm_cvtss_f32(q);
}

static inline float vf_hmax(vf a)
{
    simde__m128 q = vf_quarter_max(a);
    q = simde_mm_max_ps(q, simde_mm_movehl_ps(q, q));
    q = simde_mm_max_ss(q, simde_mm_shuffle_ps(q, q, 1));
    return simde_mm_cvtss_f32(q);
}

#endif
