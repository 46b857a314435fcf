/* att_bench.h: the pieces of `make bench` (bench/att_bench.c drives them).
 * Shapes: (a) causal MHA forward with projections B=1 T=512 d=512 H=8;
 * (b) the same at T=2048 d=768 H=12; (c) one decode step, KV cache S=4096,
 * H=32, D=128, attention only, cache laid out [S, H*D] (position-major);
 * (d) the causal backward pass T=S=1024 H=8 D=64, the core only. */
#ifndef ATT_BENCH_H
#define ATT_BENCH_H

#include <stddef.h>

/* Textbook scalar C (att_bench_scalar.c): float loops as a learner writes
 * them, the full T x T scores with the mask applied; built without
 * vectorisation. scratch: (4 T d + T) floats; decode scratch: S floats. */
void bench_mha_scalar(float *out, const float *x, const float *wq, const float *wk,
                      const float *wv, const float *wo, int T, int d, int H, float *scratch);
void bench_decode_scalar(float *out, const float *q, const float *k, const float *v,
                         int S, int H, int D, float *scratch);

/* OpenBLAS (att_bench_blas.c): sgemm for the projections and per head for
 * Q K^T and P V (full T x T, then masked), sgemv per head for decode.
 * Returns 0 where the bench was built without OpenBLAS. scratch: (4 T d +
 * T T) floats; decode scratch: S floats. */
int bench_blas_available(void);
void bench_blas_threads(int n);
void bench_mha_blas(float *out, const float *x, const float *wq, const float *wk,
                    const float *wv, const float *wo, int T, int d, int H, float *scratch);
void bench_decode_blas(float *out, const float *q, const float *k, const float *v,
                       int S, int H, int D, float *scratch);

#endif
