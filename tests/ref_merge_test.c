/* ref_merge_test.c: tests of the split-KV merge (exercise 60,
 * core/att_ref_merge.c): attention split at arbitrary points and merged
 * equals the unsplit attention, out and lse, with empty splits anywhere,
 * P = 1, and log-sum-exps past exp()'s range in double; the edge rules; the
 * statement's worked example. Built and run by tests/ref.test.mjs.
 *
 *   ref_merge_test            run every test, print "N passed, N failed"
 *   ref_merge_test --list     the test names, one a line
 *   ref_merge_test NAME       run one test
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
    att_fill_uniform(x, n, 60, stream, scale);
    return x;
}

/* The splits of a row: P ranges [cut[p], cut[p + 1]) of its S keys, from
 * the pattern: 0 random cuts, 1 the first split empty, 2 the middle one, 3
 * the last one, 4 every other split empty (and the rest take all the keys). */
static void cuts(int *cut, int P, int S, int pattern, uint64_t stream)
{
    cut[0] = 0;
    cut[P] = S;
    for (int p = 1; p < P; p++) cut[p] = (int)(att_rng_u64(61, stream, (uint64_t)p) % (uint64_t)(S + 1));
    for (int p = 1; p < P; p++)   /* sorted: insertion, P is small */
        for (int q = p; q > 1 && cut[q - 1] > cut[q]; q--) {
            int t = cut[q];
            cut[q] = cut[q - 1];
            cut[q - 1] = t;
        }
    /* Only inner cuts move: the splits still cover the S keys. */
    if (pattern == 1 && P >= 2) cut[1] = 0;
    if (pattern == 2 && P >= 3) cut[P / 2 + 1] = cut[P / 2];
    if (pattern == 3 && P >= 2) cut[P - 1] = S;
    if (pattern == 4)
        for (int p = 1; p + 1 < P; p += 2) cut[p + 1] = cut[p];
}

/* Each split of every (batch, head) row of q [B, H, D] against k, v
 * [B, H, S, D] attended on its own (att_attn_lse_ref over its key range),
 * into o_part [P, B, H, D] and lse_part [P, B, H]; an empty split writes
 * zeros and -INFINITY, as Flash-Decoding does. */
static void split_attention(float *o_part, float *lse_part, const float *q, const float *k,
                            const float *v, int P, int B, int H, int S, int D, int pattern,
                            float *scratch)
{
    size_t rows = (size_t)B * H;
    int *cut = xmalloc((size_t)(P + 1) * sizeof(int));
    for (size_t r = 0; r < rows; r++) {
        cuts(cut, P, S, pattern, r);
        for (int p = 0; p < P; p++) {
            float *o = o_part + ((size_t)p * rows + r) * D, *l = lse_part + (size_t)p * rows + r;
            int n = cut[p + 1] - cut[p];
            if (n == 0) {
                for (int c = 0; c < D; c++) o[c] = 0.0f;
                *l = -INFINITY;
                continue;
            }
            const float *kr = k + (r * S + (size_t)cut[p]) * D, *vr = v + (r * S + (size_t)cut[p]) * D;
            CHECK(att_attn_lse_ref(o, l, q + r * D, kr, vr, 1, 1, 1, n, D, 0, scratch) == ATT_OK, "split");
        }
    }
    free(cut);
}

/* Splitting attention at arbitrary points and merging equals unsplit
 * attention: out within float rounding, lse relatively; with q scaled by 300
 * the lse is far past 709, where exp(lse) overflows even in double. */
static void test_merge_equals_unsplit(void)
{
    static const struct { int P, B, H, S, D; float qscale; } sz[] = {
        { 1, 1, 1, 1, 1, 1 }, { 1, 2, 3, 9, 5, 1 }, { 2, 1, 1, 2, 2, 1 }, { 3, 2, 2, 17, 7, 1 },
        { 5, 3, 1, 33, 16, 1 }, { 16, 1, 2, 65, 3, 1 }, { 4, 2, 2, 40, 8, 30 }, { 7, 1, 3, 29, 8, 300 },
    };
    for (size_t s = 0; s < sizeof sz / sizeof sz[0]; s++)
        for (int pattern = 0; pattern < 5; pattern++) {
            int P = sz[s].P, B = sz[s].B, H = sz[s].H, S = sz[s].S, D = sz[s].D;
            size_t rows = (size_t)B * H;
            float *q = uniform(rows * D, 1 + s, 2.0f * sz[s].qscale), *k = uniform(rows * S * D, 20 + s, 2.0f);
            float *v = uniform(rows * S * D, 40 + s, 1.0f), *scratch = xmalloc((size_t)S * sizeof(float));
            float *o_part = xmalloc((size_t)P * rows * D * sizeof(float));
            float *lse_part = xmalloc((size_t)P * rows * sizeof(float));
            float *out = xmalloc(rows * D * sizeof(float)), *lse = xmalloc(rows * sizeof(float));
            float *want = xmalloc(rows * D * sizeof(float)), *want_lse = xmalloc(rows * sizeof(float));
            split_attention(o_part, lse_part, q, k, v, P, B, H, S, D, pattern, scratch);
            CHECK(att_merge_lse_ref(out, lse, o_part, lse_part, P, B, H, D) == ATT_OK, "ok");
            CHECK(att_attn_lse_ref(want, want_lse, q, k, v, B, H, 1, S, D, 0, scratch) == ATT_OK, "ok");
            int bad = 0;
            double top = 0;
            for (size_t r = 0; r < rows; r++) {
                bad += !(fabsf(lse[r] - want_lse[r]) <= 2e-6f * (1.0f + fabsf(want_lse[r])));
                if (want_lse[r] > top) top = want_lse[r];
                for (int c = 0; c < D; c++) bad += !(fabsf(out[r * D + c] - want[r * D + c]) <= 2e-6f);
            }
            CHECK(bad == 0, "P=%d B=%d H=%d S=%d D=%d pattern %d: %d elements differ from unsplit",
                  P, B, H, S, D, pattern, bad);
            if (sz[s].qscale >= 300) CHECK(top > 709.8, "the large case's lse stays at %g", top);
            free(q); free(k); free(v); free(scratch); free(o_part); free(lse_part);
            free(out); free(lse); free(want); free(want_lse);
        }
}

/* Every split empty: zeros and -inf, never NaN. An empty split is never
 * read (NaN there changes nothing). P = 1 returns its split as it is. Sizes
 * below 1 are refused, touching nothing. */
static void test_merge_edges(void)
{
    enum { B = 2, H = 1, D = 3 };
    float o_part[3 * B * H * D], lse_part[3 * B * H], out[B * H * D], lse[B * H];
    for (int i = 0; i < 3 * B * H * D; i++) o_part[i] = 0.0f;
    for (int i = 0; i < 3 * B * H; i++) lse_part[i] = -INFINITY;
    lse_part[2 * B * H + 1] = 1.5f;   /* row 1: only the last split saw keys */
    for (int c = 0; c < D; c++) o_part[(2 * B * H + 1) * D + c] = (float)c - 0.25f;
    for (int c = 0; c < D; c++) o_part[(1 * B * H + 1) * D + c] = NAN;   /* an empty split: unread */
    CHECK(att_merge_lse_ref(out, lse, o_part, lse_part, 3, B, H, D) == ATT_OK, "ok");
    CHECK(lse[0] == -INFINITY, "all splits empty: lse %g, not -inf", lse[0]);
    for (int c = 0; c < D; c++) CHECK(out[c] == 0.0f, "all splits empty: out[%d] = %g, not 0", c, out[c]);
    CHECK(lse[1] == 1.5f, "one split with keys: lse %g, not its own 1.5", lse[1]);
    for (int c = 0; c < D; c++)
        CHECK(out[D + c] == (float)c - 0.25f, "one split with keys: out[%d] = %g", c, out[D + c]);
    float one[B * H * D], one_lse[B * H];
    CHECK(att_merge_lse_ref(one, one_lse, o_part + 2 * B * H * D, lse_part + 2 * B * H, 1, B, H, D) == ATT_OK,
          "ok");
    CHECK(one_lse[1] == 1.5f && one[D + 2] == 1.75f, "P = 1: %g %g", one_lse[1], one[D + 2]);
    out[0] = 9.0f;
    CHECK(att_merge_lse_ref(out, lse, o_part, lse_part, 0, B, H, D) == ATT_EBADSHAPE, "P = 0 refused");
    CHECK(att_merge_lse_ref(out, lse, o_part, lse_part, 3, B, H, 0) == ATT_EBADSHAPE, "D = 0 refused");
    CHECK(out[0] == 9.0f, "a refused merge touched out");
}

/* The statement's worked example, by hand: split 0 holds keys with scores
 * (1, 0) and values (1, 2), (3, 4); split 1 one key of score 2, value (5, 6).
 * Unsplit: weights e^1, e^0, e^2 over 1 + e + e^2. */
static void test_merge_example(void)
{
    double e = exp(1.0), z = 1.0 + e + e * e;
    float o_part[4] = { (float)((e * 1 + 3) / (e + 1)), (float)((e * 2 + 4) / (e + 1)), 5.0f, 6.0f };
    float lse_part[2] = { (float)log(e + 1.0), 2.0f }, out[2], lse;
    CHECK(att_merge_lse_ref(out, &lse, o_part, lse_part, 2, 1, 1, 2) == ATT_OK, "ok");
    double want[2] = { (e * 1 + 3 + e * e * 5) / z, (e * 2 + 4 + e * e * 6) / z };
    CHECK(fabs(lse - log(z)) < 1e-6, "lse %g, want %g", lse, log(z));
    CHECK(fabs(out[0] - want[0]) < 1e-6 && fabs(out[1] - want[1]) < 1e-6, "out (%g, %g), want (%g, %g)",
          out[0], out[1], want[0], want[1]);
    CHECK(fabs(lse - 2.4076) < 1e-4 && fabs(out[0] - 3.8410) < 1e-4 && fabs(out[1] - 4.8410) < 1e-4,
          "the statement's numbers: lse %.4f out (%.4f, %.4f)", lse, out[0], out[1]);
}

static const check_test tests[] = {
    { "merge_equals_unsplit", test_merge_equals_unsplit },
    { "merge_edges", test_merge_edges },
    { "merge_example", test_merge_example },
};

int main(int argc, char **argv)
{
    return check_main(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv, NULL);
}
