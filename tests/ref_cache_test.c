/* ref_cache_test.c: tests of the reference kernels of exercises 52-56
 * (core/att_ref_cache.c and its neighbours): the properties the chapter
 * states (decoding token by token equals prefill, ...), edge rules, and
 * exact integer answers. Built and run by tests/ref.test.mjs.
 *
 *   ref_cache_test            run every test, print "N passed, N failed"
 *   ref_cache_test --list     the test names, one a line
 *   ref_cache_test NAME       run one test
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "att.h"
#include "check.h"


static float *uniform(size_t n, uint64_t stream, float scale)
{
    float *x = xmalloc(n * sizeof *x);
    att_fill_uniform(x, n, 52, stream, scale);
    return x;
}

/* ---- 52: decode step ---- */

/* Decoding T tokens one by one from an empty cache equals causal prefill of
 * the same T tokens, for every head and every position, bit for bit: the
 * same keys reach each query and the masked ones add exact zeros. */
static void test_decode_equals_prefill(void)
{
    static const struct { int B, T, H, D; } sz[] = {
        { 1, 1, 1, 1 }, { 2, 3, 1, 5 }, { 1, 7, 3, 4 }, { 3, 17, 2, 7 }, { 1, 33, 1, 16 },
        { 2, 65, 2, 3 },
    };
    for (size_t s = 0; s < sizeof sz / sizeof sz[0]; s++) {
        int B = sz[s].B, T = sz[s].T, H = sz[s].H, D = sz[s].D, S_max = T + 2;
        size_t row = (size_t)H * D;
        /* Tokens [B, T, H, D]: position-major, like the cache. */
        float *q = uniform((size_t)B * T * row, 1, 2.0f), *k = uniform((size_t)B * T * row, 2, 2.0f);
        float *v = uniform((size_t)B * T * row, 3, 1.0f);
        float *kc = uniform((size_t)B * S_max * row, 4, 9.0f);   /* stale garbage */
        float *vc = uniform((size_t)B * S_max * row, 5, 9.0f);
        float *step = xmalloc(B * row * sizeof(float)), *dec = xmalloc((size_t)B * T * row * sizeof(float));
        float *pre = xmalloc((size_t)T * D * sizeof(float)), *scratch = xmalloc((size_t)S_max * sizeof(float));
        float *qn = xmalloc(B * row * sizeof(float)), *kn = xmalloc(B * row * sizeof(float));
        float *vn = xmalloc(B * row * sizeof(float));
        int *len = xmalloc((size_t)B * sizeof(int));
        for (int b = 0; b < B; b++) len[b] = 0;
        for (int t = 0; t < T; t++) {
            for (int b = 0; b < B; b++) {
                size_t at = ((size_t)b * T + t) * row;
                memcpy(qn + b * row, q + at, row * sizeof(float));
                memcpy(kn + b * row, k + at, row * sizeof(float));
                memcpy(vn + b * row, v + at, row * sizeof(float));
            }
            att_status st = att_decode_step_ref(step, kc, vc, len, qn, kn, vn, B, S_max, H, D, scratch);
            CHECK(st == ATT_OK, "step %d: %s", t, att_strerror(st));
            for (int b = 0; b < B; b++) {
                CHECK(len[b] == t + 1, "after step %d len[%d] = %d", t, b, len[b]);
                memcpy(dec + ((size_t)b * T + t) * row, step + b * row, row * sizeof(float));
            }
        }
        float scale = 1.0f / sqrtf((float)D);
        int bad = 0;
        for (int b = 0; b < B; b++)
            for (int h = 0; h < H; h++) {
                size_t base = (size_t)b * T * row + (size_t)h * D;
                att_sdpa_ref(pre, D, q + base, (int)row, k + base, v + base, (int)row, NULL, T, T, D,
                             1, scale, scratch);
                for (int t = 0; t < T; t++)
                    for (int c = 0; c < D; c++)
                        bad += pre[(size_t)t * D + c] != dec[base + (size_t)t * row + c];
                /* The cache now holds exactly the tokens, in order. */
                for (int t = 0; t < T; t++)
                    for (int c = 0; c < D; c++)
                        bad += kc[((size_t)b * S_max + t) * row + (size_t)h * D + c] !=
                               k[base + (size_t)t * row + c];
            }
        CHECK(bad == 0, "B=%d T=%d H=%d D=%d: %d elements differ from prefill", B, T, H, D, bad);
        free(q); free(k); free(v); free(kc); free(vc); free(step); free(dec); free(pre);
        free(scratch); free(qn); free(kn); free(vn); free(len);
    }
}

/* Rows past the new length keep their stale values; an empty cache gives
 * the new token's own value; a full cache is refused touching nothing. */
static void test_decode_edges(void)
{
    enum { B = 2, S_max = 5, H = 2, D = 3 };
    size_t row = (size_t)H * D, n = (size_t)B * S_max * row;
    float *kc = uniform(n, 10, 1.0f), *vc = uniform(n, 11, 1.0f);
    float *kc0 = xmalloc(n * sizeof(float)), *vc0 = xmalloc(n * sizeof(float));
    memcpy(kc0, kc, n * sizeof(float));
    memcpy(vc0, vc, n * sizeof(float));
    float *q = uniform(B * row, 12, 1.0f), *k = uniform(B * row, 13, 1.0f), *v = uniform(B * row, 14, 1.0f);
    float out[B * H * D], scratch[S_max];
    int len[B] = { 0, 3 };
    CHECK(att_decode_step_ref(out, kc, vc, len, q, k, v, B, S_max, H, D, scratch) == ATT_OK, "ok");
    CHECK(len[0] == 1 && len[1] == 4, "len %d %d", len[0], len[1]);
    for (size_t c = 0; c < row; c++)   /* one key: weight 1 on the token's own value */
        CHECK(fabsf(out[c] - v[c]) <= 1e-7f, "empty cache: out[%zu] = %g, v = %g", c, out[c], v[c]);
    int changed = 0;
    for (int b = 0; b < B; b++)
        for (int p = 0; p < S_max; p++)
            for (size_t c = 0; c < row; c++) {
                size_t i = ((size_t)b * S_max + p) * row + c;
                int appended = p == (b == 0 ? 0 : 3);
                if (appended) {
                    CHECK(kc[i] == k[b * row + c] && vc[i] == v[b * row + c], "b=%d p=%d not appended", b, p);
                } else {
                    changed += kc[i] != kc0[i] || vc[i] != vc0[i];
                }
            }
    CHECK(changed == 0, "%d cache elements changed that must not", changed);
    int full[B] = { 5, 0 };
    float before = out[0];
    CHECK(att_decode_step_ref(out, kc, vc, full, q, k, v, B, S_max, H, D, scratch) == ATT_ECACHEFULL,
          "len = S_max must be refused");
    CHECK(full[1] == 0 && out[0] == before, "a refused step touched something");
    int neg[B] = { 0, -1 };
    CHECK(att_decode_step_ref(out, kc, vc, neg, q, k, v, B, S_max, H, D, scratch) == ATT_ECACHEFULL,
          "a negative length must be refused");
    CHECK(neg[0] == 0, "a refused step advanced a length");
    free(kc); free(vc); free(kc0); free(vc0); free(q); free(k); free(v);
}

/* ---- 53: attention sinks ---- */

static int max_diff_bits(const float *a, const float *b, size_t n)
{
    int bad = 0;
    for (size_t i = 0; i < n; i++) bad += a[i] != b[i];
    return bad;
}

/* The chapter's edge rules: W >= T or n_sink >= T is plain causal attention,
 * n_sink = 0 with W = 1 sees only itself (out = v). */
static void test_sink_edges(void)
{
    static const struct { int B, H, T, D; } sz[] = { { 1, 1, 1, 1 }, { 2, 3, 7, 5 }, { 1, 2, 17, 3 }, { 1, 1, 65, 8 } };
    for (size_t s = 0; s < sizeof sz / sizeof sz[0]; s++) {
        int B = sz[s].B, H = sz[s].H, T = sz[s].T, D = sz[s].D;
        size_t n = (size_t)B * H * T * D, td = (size_t)T * D;
        float *q = uniform(n, 20, 2.0f), *k = uniform(n, 21, 2.0f), *v = uniform(n, 22, 1.0f);
        float *out = xmalloc(n * sizeof(float)), *causal = xmalloc(n * sizeof(float));
        float *scratch = xmalloc((size_t)T * sizeof(float));
        float scale = 1.0f / sqrtf((float)D);
        for (size_t bh = 0; bh < (size_t)B * H; bh++)
            att_sdpa_ref(causal + bh * td, D, q + bh * td, D, k + bh * td, v + bh * td, D, NULL,
                         T, T, D, 1, scale, scratch);
        static const int policy[][2] = { { 0, 1000 }, { 3, 1000 }, { 1000, 1 }, { 0, -1 } };
        for (int p = 0; p < 4; p++) {
            int n_sink = policy[p][0], W = policy[p][1] < 0 ? T : policy[p][1];
            CHECK(att_sink_ref(out, q, k, v, B, H, T, D, n_sink, W, scratch) == ATT_OK, "ok");
            int bad = max_diff_bits(out, causal, n);
            CHECK(bad == 0, "T=%d n_sink=%d W=%d: %d elements differ from causal", T, n_sink, W, bad);
        }
        CHECK(att_sink_ref(out, q, k, v, B, H, T, D, 0, 1, scratch) == ATT_OK, "ok");
        int bad = 0;
        for (size_t i = 0; i < n; i++) bad += fabsf(out[i] - v[i]) > 1e-7f;
        CHECK(bad == 0, "T=%d W=1, no sinks: %d elements are not v", T, bad);
        CHECK(att_sink_ref(out, q, k, v, B, H, T, D, 0, 0, scratch) == ATT_EBADSHAPE, "W = 0 refused");
        CHECK(att_sink_ref(out, q, k, v, B, H, T, D, -1, 2, scratch) == ATT_EBADSHAPE, "n_sink < 0 refused");
        free(q); free(k); free(v); free(out); free(causal); free(scratch);
    }
}

/* StreamingLLM itself: decode token by token with a cache that holds at most
 * n_sink + W tokens, evicting the oldest non-sink token when full; each step's
 * output equals the sink mask's row for that token. */
static void test_sink_equals_streaming_cache(void)
{
    static const struct { int T, D, n_sink, W; } sz[] = {
        { 9, 3, 1, 2 }, { 17, 5, 4, 3 }, { 33, 7, 2, 8 }, { 12, 4, 0, 5 }, { 6, 2, 6, 1 },
    };
    for (size_t s = 0; s < sizeof sz / sizeof sz[0]; s++) {
        int T = sz[s].T, D = sz[s].D, n_sink = sz[s].n_sink, W = sz[s].W;
        size_t n = (size_t)T * D;
        float *q = uniform(n, 30, 2.0f), *k = uniform(n, 31, 2.0f), *v = uniform(n, 32, 1.0f);
        float *want = xmalloc(n * sizeof(float)), *scratch = xmalloc((size_t)T * sizeof(float));
        int cap = n_sink + W, len = 0, *pos = xmalloc((size_t)cap * sizeof(int));
        float *kc = xmalloc((size_t)cap * D * sizeof(float)), *vc = xmalloc((size_t)cap * D * sizeof(float));
        CHECK(att_sink_ref(want, q, k, v, 1, 1, T, D, n_sink, W, scratch) == ATT_OK, "ok");
        int bad = 0;
        for (int t = 0; t < T; t++) {
            if (len == cap) {   /* evict the oldest token that is not a sink */
                int drop = n_sink < len ? n_sink : len - 1;
                memmove(kc + (size_t)drop * D, kc + (size_t)(drop + 1) * D, (size_t)(len - drop - 1) * D * sizeof(float));
                memmove(vc + (size_t)drop * D, vc + (size_t)(drop + 1) * D, (size_t)(len - drop - 1) * D * sizeof(float));
                memmove(pos + drop, pos + drop + 1, (size_t)(len - drop - 1) * sizeof(int));
                len--;
            }
            memcpy(kc + (size_t)len * D, k + (size_t)t * D, (size_t)D * sizeof(float));
            memcpy(vc + (size_t)len * D, v + (size_t)t * D, (size_t)D * sizeof(float));
            pos[len++] = t;
            float got[64];
            att_sdpa_ref(got, D, q + (size_t)t * D, D, kc, vc, D, NULL, 1, len, D, 0,
                         1.0f / sqrtf((float)D), scratch);
            for (int c = 0; c < D; c++) bad += fabsf(got[c] - want[(size_t)t * D + c]) > 1e-6f;
        }
        CHECK(bad == 0, "T=%d n_sink=%d W=%d: %d elements differ from the streaming cache", T, n_sink, W, bad);
        free(q); free(k); free(v); free(want); free(scratch); free(pos); free(kc); free(vc);
    }
}

/* ---- 54: cross-attention ---- */

/* Padded encoder keys change nothing; an all-ones mask is NULL; an
 * all-padded encoder gives zeros; S != T both ways. */
static void test_cross_mask_rules(void)
{
    static const struct { int B, H, T, S, D; } sz[] = {
        { 1, 1, 1, 1, 1 }, { 2, 2, 5, 9, 4 }, { 3, 1, 11, 4, 3 }, { 2, 3, 17, 33, 7 },
    };
    for (size_t s = 0; s < sizeof sz / sizeof sz[0]; s++) {
        int B = sz[s].B, H = sz[s].H, T = sz[s].T, S = sz[s].S, D = sz[s].D;
        size_t nq = (size_t)B * H * T * D, nk = (size_t)B * H * S * D;
        float *q = uniform(nq, 40, 2.0f), *k = uniform(nk, 41, 2.0f), *v = uniform(nk, 42, 1.0f);
        float *a = xmalloc(nq * sizeof(float)), *b2 = xmalloc(nq * sizeof(float));
        float *scratch = xmalloc((size_t)S * sizeof(float));
        unsigned char *mask = xmalloc((size_t)B * S);
        memset(mask, 1, (size_t)B * S);
        CHECK(att_cross_ref(a, q, k, v, NULL, B, H, T, S, D, scratch) == ATT_OK, "ok");
        CHECK(att_cross_ref(b2, q, k, v, mask, B, H, T, S, D, scratch) == ATT_OK, "ok");
        CHECK(max_diff_bits(a, b2, nq) == 0, "S=%d T=%d: an all-ones mask differs from NULL", S, T);
        /* The definition, in long double, for the first and last query of
         * batch 0, head 0: every encoder key, no causal cut. */
        for (int i = 0; i < T; i += T > 1 ? T - 1 : 1) {
            long double z = 0, o[64] = { 0 };
            for (int j = 0; j < S; j++) {
                long double dot = 0;
                for (int c = 0; c < D; c++) dot += (long double)q[(size_t)i * D + c] * k[(size_t)j * D + c];
                long double e = expl(dot / sqrtl((long double)D));
                z += e;
                for (int c = 0; c < D; c++) o[c] += e * v[(size_t)j * D + c];
            }
            for (int c = 0; c < D; c++)
                CHECK(fabsl(o[c] / z - a[(size_t)i * D + c]) < 1e-6L, "S=%d T=%d query %d: %g, defined %Lg",
                      S, T, i, a[(size_t)i * D + c], o[c] / z);
        }
        /* Batch 0 all padded, the others pad their last key; then move the
         * padded keys and values: nothing may change. */
        for (int bb = 0; bb < B; bb++)
            for (int j = 0; j < S; j++) mask[bb * S + j] = bb > 0 && (j < S - 1 || S == 1);
        CHECK(att_cross_ref(a, q, k, v, mask, B, H, T, S, D, scratch) == ATT_OK, "ok");
        for (size_t i = 0; i < (size_t)H * T * D; i++)
            CHECK(a[i] == 0.0f, "S=%d T=%d: an all-padded encoder gives %g at %zu, not 0", S, T, a[i], i);
        for (int bb = 0; bb < B; bb++)
            for (int h = 0; h < H; h++)
                for (int j = 0; j < S; j++)
                    if (!mask[bb * S + j])
                        for (int c = 0; c < D; c++) {
                            k[(((size_t)bb * H + h) * S + j) * D + c] += 3.0f;
                            v[(((size_t)bb * H + h) * S + j) * D + c] -= 5.0f;
                        }
        CHECK(att_cross_ref(b2, q, k, v, mask, B, H, T, S, D, scratch) == ATT_OK, "ok");
        CHECK(max_diff_bits(a, b2, nq) == 0, "S=%d T=%d: moving padded keys changed the output", S, T);
        free(q); free(k); free(v); free(a); free(b2); free(scratch); free(mask);
    }
}

/* ---- 55: attention with the row log-sum-exp ---- */

/* out is plain attention (att_sdpa_ref), and the log-sum-exp is what makes
 * tiles composable: attention over keys [0, S) is the two halves' outputs
 * weighted by exp(lse_half - lse), and lse = log(exp(lse_a) + exp(lse_b)). */
static void test_lse_merges_halves(void)
{
    static const struct { int T, S, D, causal; } sz[] = {
        { 1, 2, 1, 0 }, { 3, 8, 5, 0 }, { 7, 17, 3, 1 }, { 5, 33, 16, 0 }, { 17, 65, 7, 1 },
    };
    for (size_t s = 0; s < sizeof sz / sizeof sz[0]; s++) {
        int T = sz[s].T, S = sz[s].S, D = sz[s].D, causal = sz[s].causal, h = S / 2;
        float *q = uniform((size_t)T * D, 50, 6.0f), *k = uniform((size_t)S * D, 51, 2.0f);
        float *v = uniform((size_t)S * D, 52, 1.0f), *scratch = xmalloc((size_t)S * sizeof(float));
        float *out = xmalloc((size_t)T * D * sizeof(float)), *plain = xmalloc((size_t)T * D * sizeof(float));
        float *oa = xmalloc((size_t)T * D * sizeof(float)), *ob = xmalloc((size_t)T * D * sizeof(float));
        float *lse = xmalloc((size_t)T * sizeof(float)), *la = xmalloc((size_t)T * sizeof(float));
        float *lb = xmalloc((size_t)T * sizeof(float));
        CHECK(att_attn_lse_ref(out, lse, q, k, v, 1, 1, T, S, D, causal, scratch) == ATT_OK, "ok");
        att_sdpa_ref(plain, D, q, D, k, v, D, NULL, T, S, D, causal, 1.0f / sqrtf((float)D), scratch);
        int bad = 0;
        for (size_t i = 0; i < (size_t)T * D; i++) bad += fabsf(out[i] - plain[i]) > 2e-6f;
        CHECK(bad == 0, "T=%d S=%d: %d outputs differ from att_sdpa_ref", T, S, bad);
        if (!causal) {   /* the halves are independent only without the causal cut */
            att_attn_lse_ref(oa, la, q, k, v, 1, 1, T, h, D, 0, scratch);
            att_attn_lse_ref(ob, lb, q, k + (size_t)h * D, v + (size_t)h * D, 1, 1, T, S - h, D, 0, scratch);
            for (int i = 0; i < T; i++) {
                double m = la[i] > lb[i] ? la[i] : lb[i];
                double l = m + log(exp(la[i] - m) + exp(lb[i] - m));
                CHECK(fabs(l - lse[i]) < 1e-5 * (1 + fabs(l)), "T=%d S=%d row %d: lse %g, merged %g", T, S, i, lse[i], l);
                for (int c = 0; c < D; c++) {
                    double o = exp(la[i] - l) * oa[i * D + c] + exp(lb[i] - l) * ob[i * D + c];
                    bad += fabs(o - out[i * D + c]) > 1e-5;
                }
            }
            CHECK(bad == 0, "T=%d S=%d: %d merged outputs differ", T, S, bad);
        }
        /* The definition itself, in long double, for one row. */
        long double z = 0;
        for (int j = 0; j <= (causal ? S - T : S - 1); j++) {
            long double dot = 0;
            for (int c = 0; c < D; c++) dot += (long double)q[c] * k[(size_t)j * D + c];
            z += expl(dot / sqrtl((long double)D));
        }
        CHECK(fabsl(logl(z) - lse[0]) < 1e-5L * (1 + fabsl(logl(z))), "T=%d S=%d: lse[0] %g, defined %Lg",
              T, S, lse[0], logl(z));
        free(q); free(k); free(v); free(scratch); free(out); free(plain); free(oa); free(ob);
        free(lse); free(la); free(lb);
    }
    /* Causal with S < T: the first T - S queries see nothing. */
    float q[3] = { 1, 2, 3 }, k[2] = { 1, 1 }, v[2] = { 5, 7 }, out[3], lse[3], scratch[2];
    CHECK(att_attn_lse_ref(out, lse, q, k, v, 1, 1, 3, 2, 1, 1, scratch) == ATT_OK, "ok");
    CHECK(out[0] == 0.0f && lse[0] == -INFINITY, "empty row: out %g lse %g", out[0], lse[0]);
    CHECK(out[1] == 5.0f && fabsf(lse[1] - 2.0f) < 1e-6f, "one key: out %g lse %g", out[1], lse[1]);
}

/* ---- 56: attention FLOPs ---- */

/* Counted independently: matmul by matmul, per head, in unsigned 128 bits,
 * and the crossover by walking T; the closed forms must agree exactly. */
static void test_flops_counted(void)
{
    static const int ds[] = { 1, 2, 3, 7, 64, 768, 4096, 65537, 262144 };
    static const int ts[] = { 1, 2, 5, 17, 1024, 8191, 65536, 1048576 };
    for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++)
        for (size_t j = 0; j < sizeof ts / sizeof ts[0]; j++) {
            unsigned __int128 d = (unsigned)ds[i], T = (unsigned)ts[j], H = ds[i] % 2 ? 1 : 2;
            unsigned __int128 D = d / H, proj = 0, attn = 0;
            for (int m = 0; m < 4; m++) proj += 2 * T * d * d;
            for (unsigned h = 0; h < H; h++) attn += 2 * T * D * T + 2 * T * T * D;
            long long p, a, c;
            att_attn_flops_ref(&p, &a, &c, ds[i], ts[j]);
            CHECK((unsigned __int128)p == proj && (unsigned __int128)a == attn,
                  "d=%d T=%d: proj %lld attn %lld", ds[i], ts[j], p, a);
        }
    for (int d = 1; d <= 300; d++) {
        long long first = 0;
        for (long long T = 1; !first; T++)
            if (4 * T * T * d > 8 * T * d * (long long)d) first = T;
        long long p, a, c;
        att_attn_flops_ref(&p, &a, &c, d, 1);
        CHECK(c == first, "d=%d: crossover %lld, counted %lld", d, c, first);
    }
    long long p, a, c;
    att_attn_flops_ref(&p, &a, &c, 4096, 8192);   /* 2^40: wraps to 0 in 32 bits */
    CHECK(p == 1099511627776LL && a == 1099511627776LL && c == 8193, "%lld %lld %lld", p, a, c);
}

static const check_test tests[] = {
    { "decode_equals_prefill", test_decode_equals_prefill },
    { "decode_edges", test_decode_edges },
    { "sink_edges", test_sink_edges },
    { "sink_equals_streaming_cache", test_sink_equals_streaming_cache },
    { "cross_mask_rules", test_cross_mask_rules },
    { "lse_merges_halves", test_lse_merges_halves },
    { "flops_counted", test_flops_counted },
};

int main(int argc, char **argv)
{
    return check_main(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv, NULL);
}
