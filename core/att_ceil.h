/* att_ceil.h: the machine's own ceilings, measured in the same run as the
 * kernels (by the bench, and by the judge's speed tier, libjudge/speed.c):
 * peak multiply-add throughput at one vector width, and read bandwidth. A
 * template over the SIMD layer (core/att_simd.h), built
 * once per width by att_ceil_{avx512,avx2,v128}.c with the kernels' flags.
 * Not a kernel: loops of independent multiply-adds with nothing else. */
#include "att.h"
#include "att_simd.h"

/* 12 independent chains: more than latency x issue width (4 x 2 on
 * current x86), so the FMA ports, not the dependency chains, set the pace;
 * and with the two constants they fit 16 vector registers (AVX2, SSE, V8's
 * wasm), where 16 chains would spill.
 * Returns a value that depends on every lane, so nothing is optimised out;
 * *flops gets the multiply-adds done, 2 per lane. */
float ATT_CEIL_FMA(long iters, double *flops)
{
    vf acc[12];
    for (int i = 0; i < 12; i++) acc[i] = vf_set1(1.0f + i * 1e-3f);
    const vf m = vf_set1(0.999999f), a = vf_set1(1e-7f);
    for (long it = 0; it < iters; it++)
#pragma GCC unroll 12
        for (int i = 0; i < 12; i++) acc[i] = vf_fma(acc[i], m, a);
    vf s = acc[0];
    for (int i = 1; i < 12; i++) s = vf_add(s, acc[i]);
    *flops = 2.0 * ATT_VW * 12 * (double)iters;
    return vf_hsum(s);
}

/* Sum of n floats (n a multiple of 4 * ATT_VW) with four accumulators. */
float ATT_CEIL_READ(const float *x, size_t n)
{
    vf s0 = vf_zero(), s1 = vf_zero(), s2 = vf_zero(), s3 = vf_zero();
    for (size_t i = 0; i < n; i += 4 * ATT_VW) {
        s0 = vf_add(s0, vf_load(x + i));
        s1 = vf_add(s1, vf_load(x + i + ATT_VW));
        s2 = vf_add(s2, vf_load(x + i + 2 * ATT_VW));
        s3 = vf_add(s3, vf_load(x + i + 3 * ATT_VW));
    }
    return vf_hsum(vf_add(vf_add(s0, s1), vf_add(s2, s3)));
}
