/* att_ref.c: the clean reference kernels. Plain loops, double accumulators,
 * maxima that start at -INFINITY. They define the semantics (att.h); faster
 * kernels are checked against them, never the other way round. */
#include <math.h>
#include "att.h"

void att_matmul_ref(float *out, const float *a, const float *w,
                    int M, int K, int N)
{
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            double acc = 0.0;
            for (int k = 0; k < K; k++)
                acc += (double)a[(size_t)m * K + k] * w[(size_t)k * N + n];
            out[(size_t)m * N + n] = (float)acc;
        }
}

void att_softmax_ref(float *y, const float *x, int rows, int n)
{
    for (int r = 0; r < rows; r++) {
        const float *xr = x + (size_t)r * n;
        float *yr = y + (size_t)r * n;
        float max = -INFINITY;
        for (int j = 0; j < n; j++)
            if (xr[j] > max) max = xr[j];
        if (max == -INFINITY) {         /* nothing to attend to: zeros, not NaN */
            for (int j = 0; j < n; j++) yr[j] = 0.0f;
            continue;
        }
        double sum = 0.0;
        for (int j = 0; j < n; j++) {
            double e = exp((double)xr[j] - max);
            yr[j] = (float)e;
            sum += e;
        }
        for (int j = 0; j < n; j++)
            yr[j] = (float)(yr[j] / sum);
    }
}

void att_sdpa_ref(float *out, int ldo, const float *q, int ldq,
                  const float *k, const float *v, int ldkv,
                  const unsigned char *key_mask, int T, int S, int D,
                  int causal, float scale, float *scratch)
{
    att_attn_desc a = { .T = T, .S = S, .causal = causal };
    for (int i = 0; i < T; i++) {
        const float *qi = q + (size_t)i * ldq;
        for (int j = 0; j < S; j++) {
            int seen = att_sees(&a, key_mask, i, j);
            double dot = 0.0;
            for (int c = 0; seen && c < D; c++)
                dot += (double)qi[c] * k[(size_t)j * ldkv + c];
            scratch[j] = seen ? (float)(scale * dot) : -INFINITY;
        }
        att_softmax_ref(scratch, scratch, 1, S);
        for (int c = 0; c < D; c++) {
            double acc = 0.0;
            for (int j = 0; j < S; j++)
                acc += (double)scratch[j] * v[(size_t)j * ldkv + c];
            out[(size_t)i * ldo + c] = (float)acc;
        }
    }
}

size_t att_mha_scratch_floats(int T, int d)
{
    return 4 * (size_t)T * d + (size_t)T;   /* q, k, v, heads, one score row */
}

att_status att_mha_ref(float *out, const float *x, const float *wq,
                       const float *wk, const float *wv, const float *wo,
                       const unsigned char *mask, int B, int T, int d, int H,
                       int causal, float *scratch)
{
    if (B <= 0 || T <= 0 || d <= 0 || H <= 0) return ATT_EBADSHAPE;
    if (d % H != 0) return ATT_EHEADS;
    int D = d / H;
    size_t td = (size_t)T * d;
    float *q = scratch, *k = q + td, *v = k + td, *heads = v + td;
    float *scores = heads + td;
    float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++) {
        const float *xb = x + b * td;
        att_matmul_ref(q, xb, wq, T, d, d);
        att_matmul_ref(k, xb, wk, T, d, d);
        att_matmul_ref(v, xb, wv, T, d, d);
        for (int h = 0; h < H; h++)
            att_sdpa_ref(heads + h * D, d, q + h * D, d, k + h * D, v + h * D, d,
                         mask ? mask + (size_t)b * T : NULL, T, T, D, causal,
                         scale, scores);
        att_matmul_ref(out + b * td, heads, wo, T, d, d);
    }
    return ATT_OK;
}

/* ---- the chapter's other exercises (45-51); semantics in att.h ---- */

void att_split_heads_ref(float *out, const float *x, int B, int T, int H, int D)
{
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++)
                for (int c = 0; c < D; c++)
                    out[(((size_t)b * H + h) * T + t) * D + c] =
                        x[((size_t)b * T + t) * H * D + (size_t)h * D + c];
}

void att_merge_heads_ref(float *out, const float *y, int B, int T, int H, int D)
{
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++)
            for (int h = 0; h < H; h++)
                for (int c = 0; c < D; c++)
                    out[((size_t)b * T + t) * H * D + (size_t)h * D + c] =
                        y[(((size_t)b * H + h) * T + t) * D + c];
}

void att_probs_ref(float *p, int ldp, const float *q, int ldq, const float *k,
                   int ldk, const unsigned char *key_mask, int T, int S, int D,
                   int causal, float scale)
{
    att_attn_desc a = { .T = T, .S = S, .causal = causal };
    for (int i = 0; i < T; i++) {
        float *pi = p + (size_t)i * ldp;
        for (int j = 0; j < S; j++) {
            int seen = att_sees(&a, key_mask, i, j);
            double dot = 0.0;
            for (int c = 0; seen && c < D; c++)
                dot += (double)q[(size_t)i * ldq + c] * k[(size_t)j * ldk + c];
            pi[j] = seen ? (float)(scale * dot) : -INFINITY;
        }
        att_softmax_ref(pi, pi, 1, S);   /* unseen keys get exactly 0 */
    }
}

/* Both are att_attn_ref (att_attn_ref.c) on one layout: one general twin, so
 * the window and the group mapping are written once. */
void att_window_ref(float *out, int ldo, const float *q, const float *k,
                    const float *v, int ld, int T, int D, int W, float scale,
                    float *scratch)
{
    att_attn_desc a = { .T = T, .S = T, .H = 1, .Hkv = 1, .D = D, .causal = 1, .window = W,
                        .scale = scale, .ldo = (size_t)ldo, .ldq = (size_t)ld, .ldkv = (size_t)ld };
    att_attn_ref(out, q, k, v, NULL, &a, scratch);
}

att_status att_gqa_ref(float *out, const float *q, const float *k,
                       const float *v, int B, int H, int Hkv, int T, int S,
                       int D, int causal, float *scratch)
{
    if (B <= 0) return ATT_EBADSHAPE;
    /* [B, H, T, D] and [B, Hkv, S, D]: per batch, heads T*D (S*D) apart. */
    att_attn_desc a = { .T = T, .S = S, .H = H, .Hkv = Hkv, .D = D, .causal = causal,
                        .scale = 1.0f / sqrtf((float)D), .ldo = (size_t)D,
                        .hso = (size_t)T * D, .ldq = (size_t)D, .hsq = (size_t)T * D,
                        .ldkv = (size_t)D, .hskv = (size_t)S * D };
    for (int b = 0; b < B; b++) {
        att_status st = att_attn_ref(out + (size_t)b * H * T * D, q + (size_t)b * H * T * D,
                                     k + (size_t)b * Hkv * S * D, v + (size_t)b * Hkv * S * D,
                                     NULL, &a, scratch);
        if (st) return st;
    }
    return ATT_OK;
}
