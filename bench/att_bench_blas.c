/* att_bench_blas.c: the OpenBLAS baseline of the bench (see att_bench.h),
 * built when mk/bench.mk finds OpenBLAS (ATT_BENCH_OPENBLAS); otherwise it
 * reports itself unavailable. The attention is what a BLAS user writes: the
 * full T x T scores per head by sgemm, the causal mask and softmax in C, P V
 * by sgemm. */
#include <math.h>
#include "att_bench.h"

#ifdef ATT_BENCH_OPENBLAS
#include <cblas.h>

void openblas_set_num_threads(int n);

int bench_blas_available(void) { return 1; }
void bench_blas_threads(int n) { openblas_set_num_threads(n); }

static void softmax_rows(float *s, int T, int S, int causal_offset, float scale)
{
    for (int i = 0; i < T; i++) {
        float *r = s + (size_t)i * S, max = -INFINITY, sum = 0.0f;
        int n = causal_offset < 0 ? S : i + causal_offset + 1;
        for (int j = 0; j < S; j++) {
            r[j] = j < n ? r[j] * scale : -INFINITY;
            if (r[j] > max) max = r[j];
        }
        for (int j = 0; j < S; j++) sum += r[j] = expf(r[j] - max);
        for (int j = 0; j < S; j++) r[j] /= sum;
    }
}

void bench_mha_blas(float *out, const float *x, const float *wq, const float *wk,
                    const float *wv, const float *wo, int T, int d, int H, float *scratch)
{
    size_t td = (size_t)T * d;
    int D = d / H;
    float *q = scratch, *k = q + td, *v = k + td, *heads = v + td, *s = heads + td;
    const float *w[3] = { wq, wk, wv };
    float *dst[3] = { q, k, v };
    for (int i = 0; i < 3; i++)
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, T, d, d, 1.0f, x, d, w[i], d,
                    0.0f, dst[i], d);
    for (int h = 0; h < H; h++) {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, T, T, D, 1.0f, q + h * D, d,
                    k + h * D, d, 0.0f, s, T);
        softmax_rows(s, T, T, 0, 1.0f / sqrtf((float)D));
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, T, D, T, 1.0f, s, T, v + h * D, d,
                    0.0f, heads + h * D, d);
    }
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, T, d, d, 1.0f, heads, d, wo, d, 0.0f,
                out, d);
}

void bench_decode_blas(float *out, const float *q, const float *k, const float *v,
                       int S, int H, int D, float *scratch)
{
    for (int h = 0; h < H; h++) {
        cblas_sgemv(CblasRowMajor, CblasNoTrans, S, D, 1.0f, k + h * D, H * D, q + h * D, 1,
                    0.0f, scratch, 1);
        softmax_rows(scratch, 1, S, -1, 1.0f / sqrtf((float)D));
        cblas_sgemv(CblasRowMajor, CblasTrans, S, D, 1.0f, v + h * D, H * D, scratch, 1, 0.0f,
                    out + h * D, 1);
    }
}
#else
int bench_blas_available(void) { return 0; }
void bench_blas_threads(int n) { (void)n; }
void bench_mha_blas(float *out, const float *x, const float *wq, const float *wk,
                    const float *wv, const float *wo, int T, int d, int H, float *scratch)
{
    (void)out, (void)x, (void)wq, (void)wk, (void)wv, (void)wo, (void)T, (void)d, (void)H,
        (void)scratch;
}
void bench_decode_blas(float *out, const float *q, const float *k, const float *v,
                       int S, int H, int D, float *scratch)
{
    (void)out, (void)q, (void)k, (void)v, (void)S, (void)H, (void)D, (void)scratch;
}
#endif
