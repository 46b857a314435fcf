/* ref_sparse_test.c: tests of the reference kernels of exercises 69 and 70
 * (core/att_ref_sparse.c): the properties the exercises state (top-k with
 * topk >= the visible count is dense causal attention, ...), the tie rule,
 * hand-computed examples and the errors. Built and run by tests/ref.test.mjs.
 *
 *   ref_sparse_test            run every test, print "N passed, N failed"
 *   ref_sparse_test --list     the test names, one a line
 *   ref_sparse_test NAME       run one test
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
    att_fill_uniform(x, n, 69, stream, scale);
    return x;
}

/* Dense causal attention of [B, H, T, D], the core's GQA reference with
 * Hkv = H: written apart from the sparse kernels. */
static void dense_causal(float *out, const float *q, const float *k, const float *v, int B, int H,
                         int T, int D)
{
    float *scratch = xmalloc((size_t)T * sizeof(float));
    att_status st = att_gqa_ref(out, q, k, v, B, H, H, T, T, D, 1, scratch);
    CHECK(st == ATT_OK, "dense reference: %s", att_strerror(st));
    free(scratch);
}

static int count_far(const float *x, const float *y, size_t n, float tol)
{
    int bad = 0;
    for (size_t i = 0; i < n; i++) bad += !(fabsf(x[i] - y[i]) <= tol);
    return bad;
}

/* ---- 69: top-k ---- */

/* topk >= the number of keys a query sees keeps all of them: with topk >= T
 * every row is dense causal attention; with topk = 5 the first five rows
 * are, and a later row is not. */
static void test_topk_dense_is_causal(void)
{
    static const struct { int B, H, T, D; } sz[] = {
        { 1, 1, 1, 1 }, { 2, 3, 7, 4 }, { 1, 2, 17, 9 }, { 3, 1, 33, 16 }, { 1, 1, 65, 3 },
    };
    for (size_t s = 0; s < sizeof sz / sizeof sz[0]; s++) {
        int B = sz[s].B, H = sz[s].H, T = sz[s].T, D = sz[s].D;
        size_t n = (size_t)B * H * T * D;
        float *q = uniform(n, 1, 2.0f), *k = uniform(n, 2, 2.0f), *v = uniform(n, 3, 1.0f);
        float *dense = xmalloc(n * sizeof(float)), *top = xmalloc(n * sizeof(float));
        double *scratch = xmalloc((size_t)T * sizeof(double));
        unsigned char *keep = xmalloc((size_t)T);
        dense_causal(dense, q, k, v, B, H, T, D);
        const int ks[] = { T, T + 1, 1000 };
        for (int t = 0; t < 3; t++) {
            att_status st = att_topk_ref(top, q, k, v, B, H, T, D, ks[t], scratch, keep);
            CHECK(st == ATT_OK, "%s", att_strerror(st));
            int bad = count_far(top, dense, n, 1e-6f);
            CHECK(bad == 0, "B=%d H=%d T=%d D=%d topk=%d: %d elements differ from causal", B, H, T, D,
                  ks[t], bad);
        }
        if (T > 5) {
            att_topk_ref(top, q, k, v, B, H, T, D, 5, scratch, keep);
            CHECK(count_far(top, dense, (size_t)5 * D, 1e-6f) == 0, "T=%d: rows 0-4 see <= 5 keys", T);
            CHECK(count_far(top, dense, n, 1e-6f) > 0, "T=%d: topk = 5 changed nothing", T);
        }
        free(q), free(k), free(v), free(dense), free(top), free(scratch), free(keep);
    }
}

/* topk = 1 returns the value of the best visible key; among equal best
 * scores the lowest index. Keys that repeat make the ties. */
static void test_topk_one_is_argmax_lowest(void)
{
    enum { T = 12, D = 3 };
    float q[T * D], k[T * D], v[T * D], out[T * D];
    double scratch[T];
    unsigned char keep[T];
    for (int i = 0; i < T * D; i++) {
        q[i] = (float)((i * 7) % 5 - 2);
        k[i] = (float)((i / D % 4) * (i % D + 1) % 3 - 1);   /* key j repeats key j - 4 */
        v[i] = (float)i;
    }
    CHECK(att_topk_ref(out, q, k, v, 1, 1, T, D, 1, scratch, keep) == ATT_OK, "topk = 1");
    for (int i = 0; i < T; i++) {
        int best = 0;
        float bs = -INFINITY;
        for (int j = 0; j <= i; j++) {
            float s = 0.0f;
            for (int c = 0; c < D; c++) s += q[i * D + c] * k[j * D + c];
            if (s > bs) bs = s, best = j;   /* strictly greater: the first of equals stays */
        }
        for (int c = 0; c < D; c++)
            CHECK(out[i * D + c] == v[best * D + c], "query %d dim %d: %g, the value of key %d is %g",
                  i, c, out[i * D + c], best, v[best * D + c]);
    }
}

/* By hand, D = 1 and q = 1 everywhere (scale 1), so the scores are k:
 * k = (1, 1, 0, 2). topk = 2: query 1 keeps keys 0 and 1, query 2 keeps 0
 * and 1 (score 1 twice beats 0), query 3 keeps 3 (2) and 0 (1, the tie
 * with key 1 to the lower index). v = (1, 10, 100, 1000). */
static void test_topk_by_hand(void)
{
    const float q[4] = { 1, 1, 1, 1 }, k[4] = { 1, 1, 0, 2 }, v[4] = { 1, 10, 100, 1000 };
    float out[4];
    double scratch[4];
    unsigned char keep[4];
    CHECK(att_topk_ref(out, q, k, v, 1, 1, 4, 1, 2, scratch, keep) == ATT_OK, "topk = 2");
    double e = exp(1.0);
    const double want[4] = { 1, 5.5, 5.5, (e * e * 1000 + e * 1) / (e * e + e) };
    for (int i = 0; i < 4; i++)
        CHECK(fabs(out[i] - want[i]) <= 1e-6 * fabs(want[i]), "query %d: %.9g, by hand %.9g", i, out[i],
              want[i]);
}

/* A size or topk below 1 is refused, and out is left as it was. */
static void test_topk_errors(void)
{
    float x[4] = { 1, 2, 3, 4 }, out[4] = { 7, 7, 7, 7 };
    double scratch[4];
    unsigned char keep[4];
    const int bad[][5] = { { 0, 1, 4, 1, 1 }, { 1, 0, 4, 1, 1 }, { 1, 1, 0, 1, 1 }, { 1, 1, 4, 0, 1 },
                           { 1, 1, 4, 1, 0 }, { 1, 1, 4, 1, -3 } };
    for (size_t t = 0; t < sizeof bad / sizeof bad[0]; t++) {
        att_status st = att_topk_ref(out, x, x, x, bad[t][0], bad[t][1], bad[t][2], bad[t][3], bad[t][4],
                                     scratch, keep);
        CHECK(st == ATT_EBADSHAPE, "case %zu: %s", t, att_strerror(st));
    }
    CHECK(out[0] == 7 && out[3] == 7, "out was touched");
}

/* ---- 70: hybrid local + global ---- */

static att_status hybrid(float *out, const float *q, const float *k, const float *v, const int *idx,
                         int B, int H, int T, int D, int W, int G)
{
    double *scratch = xmalloc((size_t)T * sizeof(double));
    unsigned char *seen = xmalloc((size_t)T);
    att_status st = att_hybrid_ref(out, q, k, v, idx, B, H, T, D, W, G, scratch, seen);
    free(scratch);
    free(seen);
    return st;
}

/* The three reductions the exercise states: a window W >= T is dense
 * causal attention whatever the globals; no global token is exercise 50's
 * sliding window; every position global is dense causal attention. And a
 * few globals inside a short window change something. */
static void test_hybrid_reductions(void)
{
    static const struct { int B, H, T, D, W; } sz[] = {
        { 1, 1, 1, 1, 1 }, { 2, 3, 7, 4, 2 }, { 1, 2, 17, 9, 5 }, { 3, 1, 33, 16, 1 }, { 1, 1, 65, 3, 16 },
    };
    for (size_t s = 0; s < sizeof sz / sizeof sz[0]; s++) {
        int B = sz[s].B, H = sz[s].H, T = sz[s].T, D = sz[s].D, W = sz[s].W;
        size_t n = (size_t)B * H * T * D;
        float *q = uniform(n, 11, 2.0f), *k = uniform(n, 12, 2.0f), *v = uniform(n, 13, 1.0f);
        float *dense = xmalloc(n * sizeof(float)), *got = xmalloc(n * sizeof(float));
        float *win = xmalloc(n * sizeof(float)), *scratch = xmalloc((size_t)T * sizeof(float));
        int *all = xmalloc((size_t)T * sizeof(int)), some[3] = { 0, T / 2, T - 1 };
        for (int t = 0; t < T; t++) all[t] = t;
        int G = T >= 3 ? 3 : 1;
        dense_causal(dense, q, k, v, B, H, T, D);
        for (size_t bh = 0; bh < (size_t)B * H; bh++)
            att_window_ref(win + bh * T * D, D, q + bh * T * D, k + bh * T * D, v + bh * T * D, D, T, D, W,
                           1.0f / sqrtf((float)D), scratch);
        CHECK(hybrid(got, q, k, v, some, B, H, T, D, T, G) == ATT_OK, "W = T");
        CHECK(count_far(got, dense, n, 1e-6f) == 0, "T=%d: W = T is not dense causal", T);
        CHECK(hybrid(got, q, k, v, some, B, H, T, D, T + 7, G) == ATT_OK, "W > T");
        CHECK(count_far(got, dense, n, 1e-6f) == 0, "T=%d: W > T is not dense causal", T);
        CHECK(hybrid(got, q, k, v, NULL, B, H, T, D, W, 0) == ATT_OK, "G = 0");
        CHECK(count_far(got, win, n, 1e-6f) == 0, "T=%d W=%d: G = 0 is not the sliding window", T, W);
        CHECK(hybrid(got, q, k, v, all, B, H, T, D, W, T) == ATT_OK, "G = T");
        CHECK(count_far(got, dense, n, 1e-6f) == 0, "T=%d W=%d: every position global is not dense", T, W);
        if (T > W + 2) {
            CHECK(hybrid(got, q, k, v, some, B, H, T, D, W, G) == ATT_OK, "some globals");
            CHECK(count_far(got, win, n, 1e-6f) > 0 && count_far(got, dense, n, 1e-6f) > 0,
                  "T=%d W=%d: globals 0, T/2, T-1 are the window or dense", T, W);
        }
        free(q), free(k), free(v), free(dense), free(got), free(win), free(scratch), free(all);
    }
}

/* By hand, D = 1, q = k = 0 (every score equal: a query's output is the
 * mean of the values it sees), v_j = 2^j so that the mean names the set:
 * T = 6, W = 2, globals 1 and 4. Query 0 sees {0}; 1 (global) {0, 1};
 * 2 {1, 2} (key 1 global and in the window: once); 3 {1, 2, 3}; 4 (global)
 * {0 .. 4}; 5 {1, 4, 5}. */
static void test_hybrid_by_hand(void)
{
    const float z[6] = { 0 }, v[6] = { 1, 2, 4, 8, 16, 32 };
    const int idx[2] = { 1, 4 };
    float out[6];
    CHECK(hybrid(out, z, z, v, idx, 1, 1, 6, 1, 2, 2) == ATT_OK, "by hand");
    const double want[6] = { 1, 1.5, 3, 14 / 3.0, 31 / 5.0, 50 / 3.0 };
    for (int i = 0; i < 6; i++)
        CHECK(fabs(out[i] - want[i]) <= 1e-6 * want[i], "query %d: %.9g, by hand %.9g", i, out[i], want[i]);
}

/* Bad sizes and global lists are refused, out untouched. */
static void test_hybrid_errors(void)
{
    float x[4] = { 1, 2, 3, 4 }, out[4] = { 7, 7, 7, 7 };
    const int unsorted[2] = { 2, 1 }, twice[2] = { 1, 1 }, outside[1] = { 4 }, negative[1] = { -1 }, ok[1] = { 0 };
    const struct { const int *idx; int T, W, G; } bad[] = {
        { ok, 4, 0, 1 }, { ok, 0, 1, 1 }, { ok, 4, 1, -1 }, { unsorted, 4, 1, 2 }, { twice, 4, 1, 2 },
        { outside, 4, 1, 1 }, { negative, 4, 1, 1 }, { ok, 1, 1, 2 },
    };
    for (size_t t = 0; t < sizeof bad / sizeof bad[0]; t++) {
        att_status st = hybrid(out, x, x, x, bad[t].idx, 1, 1, bad[t].T, 1, bad[t].W, bad[t].G);
        CHECK(st == ATT_EBADSHAPE, "case %zu: %s", t, att_strerror(st));
    }
    CHECK(out[0] == 7 && out[3] == 7, "out was touched");
}

static const check_test tests[] = {
    { "topk_dense_is_causal", test_topk_dense_is_causal },
    { "topk_one_is_argmax_lowest", test_topk_one_is_argmax_lowest },
    { "topk_by_hand", test_topk_by_hand },
    { "topk_errors", test_topk_errors },
    { "hybrid_reductions", test_hybrid_reductions },
    { "hybrid_by_hand", test_hybrid_by_hand },
    { "hybrid_errors", test_hybrid_errors },
};

int main(int argc, char **argv)
{
    return check_main(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv, NULL);
}
