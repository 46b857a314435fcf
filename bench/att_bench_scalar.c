/* att_bench_scalar.c: the textbook scalar C baseline of the bench (see
 * att_bench.h): float accumulators, loops in the cache-friendly i-k-j order
 * for the projections, the full score row of each query with the causal
 * mask applied by -INFINITY, expf from libm. mk/bench.mk builds it with
 * -fno-tree-vectorize so that it stays scalar. */
#include <math.h>
#include <string.h>
#include "att_bench.h"

static void matmul(float *out, const float *a, const float *w, int M, int K, int N)
{
    for (int m = 0; m < M; m++) {
        float *o = out + (size_t)m * N;
        memset(o, 0, sizeof(float) * N);
        for (int k = 0; k < K; k++) {
            float av = a[(size_t)m * K + k];
            const float *wr = w + (size_t)k * N;
            for (int n = 0; n < N; n++) o[n] += av * wr[n];
        }
    }
}

/* One query against S keys (row stride ld), seen: keys [0, n). */
static void attend(float *out, const float *q, const float *k, const float *v, size_t ld,
                   int S, int n, int D, float scale, float *p)
{
    float max = -INFINITY, sum = 0.0f;
    for (int j = 0; j < S; j++) {
        float s = 0.0f;
        for (int c = 0; c < D; c++) s += q[c] * k[j * ld + c];
        p[j] = j < n ? s * scale : -INFINITY;
        if (p[j] > max) max = p[j];
    }
    for (int j = 0; j < S; j++) {
        p[j] = expf(p[j] - max);
        sum += p[j];
    }
    for (int c = 0; c < D; c++) {
        float acc = 0.0f;
        for (int j = 0; j < S; j++) acc += p[j] * v[j * ld + c];
        out[c] = acc / sum;
    }
}

void bench_mha_scalar(float *out, const float *x, const float *wq, const float *wk,
                      const float *wv, const float *wo, int T, int d, int H, float *scratch)
{
    size_t td = (size_t)T * d;
    int D = d / H;
    float *q = scratch, *k = q + td, *v = k + td, *heads = v + td, *p = heads + td;
    matmul(q, x, wq, T, d, d);
    matmul(k, x, wk, T, d, d);
    matmul(v, x, wv, T, d, d);
    for (int h = 0; h < H; h++)
        for (int i = 0; i < T; i++)
            attend(heads + (size_t)i * d + h * D, q + (size_t)i * d + h * D, k + h * D, v + h * D,
                   (size_t)d, T, i + 1, D, 1.0f / sqrtf((float)D), p);
    matmul(out, heads, wo, T, d, d);
}

void bench_decode_scalar(float *out, const float *q, const float *k, const float *v,
                         int S, int H, int D, float *scratch)
{
    for (int h = 0; h < H; h++)
        attend(out + h * D, q + h * D, k + h * D, v + h * D, (size_t)H * D, S, S, D,
               1.0f / sqrtf((float)D), scratch);
}
