/* core_test.c: tests of the attention core (core/att.h): the generator pinned
 * by hashes, the reference kernels against the double oracle on awkward sizes,
 * the properties the chapter states, and the comparison's edge rules.
 *
 *   core_test            run every test, print "N passed, N failed"
 *   core_test --list     the test names, one a line
 *   core_test NAME       run one test
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "att.h"
#include "check.h"


/* ---- generator ---- */

/* Pinned: these hashes are what every platform must produce (they were
 * checked against an independent implementation of the spec in att.h). A
 * change here is a change of every hidden test, so it must be deliberate. */
static void test_rng_pinned(void)
{
    static const struct { uint64_t seed, stream; size_t n; float scale; uint64_t hash; } pin[] = {
        { 0, 0, 1, 1.0f, 0xf10b200b738e8161ull },
        { 1, 2, 1000, 1.0f, 0xaa9bc33d0d56ea69ull },
        { 20261130, 7, 4097, 0.375f, 0x3d0e5fdfe7af57e0ull },
        { 0xffffffffffffffffull, 0xffffffffull, 63, 30.0f, 0x68eb9ade2ffb3796ull },
    };
    for (size_t i = 0; i < sizeof pin / sizeof pin[0]; i++) {
        float *x = xmalloc(pin[i].n * sizeof *x);
        att_fill_uniform(x, pin[i].n, pin[i].seed, pin[i].stream, pin[i].scale);
        uint64_t h = att_hash_bytes(x, pin[i].n * sizeof *x);
        CHECK(h == pin[i].hash, "pin %zu: hash 0x%016llxull, pinned 0x%016llxull", i,
              (unsigned long long)h, (unsigned long long)pin[i].hash);
        free(x);
    }
    CHECK(att_rng_u64(1, 2, 3) == 0xdac0b083a7c5fea9ull, "att_rng_u64(1, 2, 3) = 0x%016llxull",
          (unsigned long long)att_rng_u64(1, 2, 3));
}

static void test_rng_range(void)
{
    enum { N = 100000 };
    float *x = xmalloc(N * sizeof *x);
    att_fill_uniform(x, N, 42, 0, 2.0f);
    double mean = 0.0;
    int out = 0;
    for (int i = 0; i < N; i++) {
        out += !(x[i] >= -2.0f && x[i] < 2.0f);
        mean += x[i];
    }
    mean /= N;
    CHECK(out == 0, "%d values outside [-2, 2)", out);
    CHECK(fabs(mean) < 0.02, "mean %g of U[-2, 2) is far from 0", mean);
    /* Streams and seeds are independent: no two first values agree. */
    CHECK(att_rng_u64(42, 0, 0) != att_rng_u64(42, 1, 0), "streams 0 and 1 collide");
    CHECK(att_rng_u64(42, 0, 0) != att_rng_u64(43, 0, 0), "seeds 42 and 43 collide");
    free(x);
}

/* ---- softmax ---- */
static void test_softmax_properties(void)
{
    static const int sizes[] = { 1, 3, 4, 5, 15, 16, 17, 63, 64, 65 };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s];
        float *x = xmalloc(sizeof(float) * n), *y = xmalloc(sizeof(float) * n);
        float *z = xmalloc(sizeof(float) * n);
        att_fill_uniform(x, (size_t)n, 3, (uint64_t)n, 20.0f);
        /* On a 1/64 grid, so that x + 1000 below is exact. */
        for (int j = 0; j < n; j++) x[j] = floorf(x[j] * 64.0f) / 64.0f;
        att_softmax_ref(y, x, 1, n);
        double sum = 0.0;
        for (int j = 0; j < n; j++) sum += y[j];
        CHECK(fabs(sum - 1.0) < 1e-6, "n=%d: row sums to %.9g", n, sum);
        /* A constant shift, even one that would overflow exp(), changes nothing. */
        for (int j = 0; j < n; j++) z[j] = x[j] + 1000.0f;
        att_softmax_ref(z, z, 1, n);
        for (int j = 0; j < n; j++)
            CHECK(fabsf(z[j] - y[j]) <= 1e-6f, "n=%d j=%d: shifted %g vs %g", n, j, z[j], y[j]);
        free(x);
        free(y);
        free(z);
    }
}

static void test_softmax_masked_rows(void)
{
    float x[6] = { -INFINITY, -INFINITY, -INFINITY, 1.0f, -INFINITY, 1.0f };
    att_softmax_ref(x, x, 2, 3);
    for (int j = 0; j < 3; j++) CHECK(x[j] == 0.0f, "all -inf row: y[%d] = %g, not 0", j, x[j]);
    CHECK(x[3] == 0.5f && x[4] == 0.0f && x[5] == 0.5f, "row 2: %g %g %g", x[3], x[4], x[5]);
}

/* ---- multi-head attention against the oracle ---- */
typedef struct {
    int B, T, d, H, causal;
    const char *mask;   /* none, right, left, empty (a batch with no real key), random */
} mha_case;

static unsigned char *make_mask(const mha_case *c, uint64_t seed)
{
    if (!strcmp(c->mask, "none")) return NULL;
    unsigned char *m = xmalloc((size_t)c->B * c->T);
    for (int b = 0; b < c->B; b++)
        for (int t = 0; t < c->T; t++) {
            int pad = (b + 1) * c->T / (c->B + 2), real = 1;
            if (!strcmp(c->mask, "right")) real = t < c->T - pad;
            else if (!strcmp(c->mask, "left")) real = t >= pad;
            else if (!strcmp(c->mask, "empty")) real = b != 0;
            else real = (att_rng_u64(seed, 99, (uint64_t)(b * c->T + t)) & 3) != 0;
            m[b * c->T + t] = (unsigned char)real;
        }
    return m;
}

/* Max of |ref - oracle| / (1e-5 + 1e-5 |oracle|) over the output. */
static double mha_vs_oracle(const mha_case *c, uint64_t seed, float qscale)
{
    size_t n = (size_t)c->B * c->T * c->d, w = (size_t)c->d * c->d;
    float *x = xmalloc(n * 4), *out = xmalloc(n * 4), *wt = xmalloc(4 * w * 4);
    double *want = xmalloc(n * 8);
    float *scratch = xmalloc(att_mha_scratch_floats(c->T, c->d) * 4);
    double *dscratch = xmalloc(att_mha_oracle_scratch(c->T, c->d) * 8);
    unsigned char *mask = make_mask(c, seed);
    att_fill_uniform(x, n, seed, 0, 1.0f);
    float ws = 3.0f / sqrtf((float)c->d);
    for (int i = 0; i < 4; i++)
        att_fill_uniform(wt + i * w, w, seed, 1 + (uint64_t)i, i == 0 ? ws * qscale : ws);
    att_status s1 = att_mha_ref(out, x, wt, wt + w, wt + 2 * w, wt + 3 * w, mask, c->B, c->T,
                                c->d, c->H, c->causal, scratch);
    att_status s2 = att_mha_oracle(want, x, wt, wt + w, wt + 2 * w, wt + 3 * w, mask, c->B,
                                   c->T, c->d, c->H, c->causal, dscratch);
    double worst = s1 || s2 ? INFINITY : 0.0;
    for (size_t i = 0; i < n && !s1 && !s2; i++) {
        double r = fabs(out[i] - want[i]) / (1e-5 + 1e-5 * fabs(want[i]));
        if (!(r <= worst)) worst = r;
    }
    free(x); free(out); free(wt); free(want); free(scratch); free(dscratch); free(mask);
    return worst;
}

static void test_mha_matches_oracle(void)
{
    static const mha_case cases[] = {
        { 1, 1, 1, 1, 1, "none" },   { 1, 3, 4, 2, 1, "none" },   { 2, 5, 6, 3, 0, "none" },
        { 3, 7, 15, 5, 1, "right" }, { 2, 16, 16, 4, 1, "left" }, { 2, 17, 17, 1, 1, "random" },
        { 1, 33, 51, 3, 0, "right" }, { 2, 63, 64, 8, 1, "empty" }, { 1, 65, 96, 6, 1, "left" },
        { 3, 4, 65, 5, 0, "random" }, { 1, 2, 256, 1, 1, "none" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const mha_case *c = &cases[i];
        double r = mha_vs_oracle(c, 1000 + i, 1.0f);
        CHECK(r <= 1.0, "B=%d T=%d d=%d H=%d causal=%d mask=%s: err/tol %g", c->B, c->T, c->d,
              c->H, c->causal, c->mask, r);
    }
    /* Scores near 100 (exp() would overflow without the max): still exact. */
    mha_case big = { 1, 17, 24, 2, 1, "none" };
    double r = mha_vs_oracle(&big, 7, 30.0f);
    CHECK(r <= 1.0, "large scores: err/tol %g", r);
}

static void test_mha_shapes_rejected(void)
{
    float f[16] = { 0 }, scratch[64];
    att_status s = att_mha_ref(f, f, f, f, f, f, NULL, 1, 1, 4, 3, 1, scratch);
    CHECK(s == ATT_EHEADS, "d=4, H=3 gave %s", att_strerror(s));
    s = att_mha_ref(f, f, f, f, f, f, NULL, 1, 0, 4, 2, 1, scratch);
    CHECK(s == ATT_EBADSHAPE, "T=0 gave %s", att_strerror(s));
    CHECK(strcmp(att_strerror(ATT_OK), "ok") == 0, "ATT_OK says %s", att_strerror(ATT_OK));
}

/* A query that sees no key gives exact zeros; position 0 sees only itself. */
static void test_mha_properties(void)
{
    enum { B = 1, T = 6, d = 8, H = 2 };
    float x[B * T * d], y[B * T * d], wt[4 * d * d], out[B * T * d], out2[B * T * d];
    float scratch[4 * T * d + T];
    unsigned char none[T] = { 0 };
    att_fill_uniform(x, B * T * d, 5, 0, 1.0f);
    att_fill_uniform(wt, 4 * d * d, 5, 1, 1.0f);
    const float *wq = wt, *wk = wt + d * d, *wv = wt + 2 * d * d, *wo = wt + 3 * d * d;
    att_mha_ref(out, x, wq, wk, wv, wo, none, B, T, d, H, 1, scratch);
    for (int i = 0; i < B * T * d; i++) CHECK(out[i] == 0.0f, "fully masked: out[%d] = %g", i, out[i]);

    /* Changing a future token changes nothing before it. */
    att_mha_ref(out, x, wq, wk, wv, wo, NULL, B, T, d, H, 1, scratch);
    memcpy(y, x, sizeof x);
    for (int c = 0; c < d; c++) y[3 * d + c] += 1.0f;
    att_mha_ref(out2, y, wq, wk, wv, wo, NULL, B, T, d, H, 1, scratch);
    for (int i = 0; i < 3 * d; i++)
        CHECK(out[i] == out2[i], "token 3 moved out[%d] (t=%d): %g -> %g", i, i / d, out[i], out2[i]);
    int moved = 0;
    for (int i = 3 * d; i < T * d; i++) moved += out[i] != out2[i];
    CHECK(moved > 0, "token 3 moved nothing at or after it");

    /* Changing a padded token changes no other position. */
    unsigned char pad[T] = { 1, 1, 1, 1, 0, 1 };
    att_mha_ref(out, x, wq, wk, wv, wo, pad, B, T, d, H, 0, scratch);
    memcpy(y, x, sizeof x);
    for (int c = 0; c < d; c++) y[4 * d + c] -= 2.0f;
    att_mha_ref(out2, y, wq, wk, wv, wo, pad, B, T, d, H, 0, scratch);
    for (int i = 0; i < T * d; i++)
        if (i / d != 4)
            CHECK(out[i] == out2[i], "padded token 4 moved out[%d] (t=%d)", i, i / d);
}

/* Causal with a KV cache: T queries that are the last T of S positions equal
 * the last T rows of full causal attention over S (decode equals prefill). */
static void test_sdpa_cache_offset(void)
{
    enum { S = 13, D = 5 };
    static const int Ts[] = { 1, 2, 7, 13 };
    float q[S * D], k[S * D], v[S * D], full[S * D], part[S * D], scratch[S];
    att_fill_uniform(q, S * D, 11, 0, 1.0f);
    att_fill_uniform(k, S * D, 11, 1, 1.0f);
    att_fill_uniform(v, S * D, 11, 2, 1.0f);
    att_sdpa_ref(full, D, q, D, k, v, D, NULL, S, S, D, 1, 0.5f, scratch);
    for (size_t t = 0; t < sizeof Ts / sizeof Ts[0]; t++) {
        int T = Ts[t];
        att_sdpa_ref(part, D, q + (S - T) * D, D, k, v, D, NULL, T, S, D, 1, 0.5f, scratch);
        for (int i = 0; i < T * D; i++)
            CHECK(part[i] == full[(S - T) * D + i], "T=%d: element %d %g vs %g", T, i, part[i],
                  full[(S - T) * D + i]);
    }
}

/* ---- comparison ---- */
static void test_compare_rules(void)
{
    float ref[6] = { 1.0f, -2.0f, 0.0f, 100.0f, 5.0f, 0.0f };
    float got[6] = { 1.0f, -2.0f, 0.0f, 100.0f, 5.0f, 0.0f };
    att_cmp r;
    att_compare(&r, got, ref, 6, 1e-4, 1e-4);
    CHECK(r.n_bad == 0 && r.first_bad == 6, "equal: %zu bad, first %zu", r.n_bad, r.first_bad);
    got[3] = 100.0f + 0.0100f;   /* tol = 1e-4 + 1e-2 */
    att_compare(&r, got, ref, 6, 1e-4, 1e-4);
    CHECK(r.n_bad == 0, "within atol + rtol*|ref|: %zu bad", r.n_bad);
    got[3] = 100.0f + 0.0105f;
    att_compare(&r, got, ref, 6, 1e-4, 1e-4);
    CHECK(r.n_bad == 1 && r.first_bad == 3, "just outside: %zu bad, first %zu", r.n_bad, r.first_bad);
    got[3] = 100.0f;
    got[1] = NAN;
    got[4] = INFINITY;
    att_compare(&r, got, ref, 6, 1e-4, 1e-4);
    CHECK(r.n_bad == 2 && r.first_bad == 1, "NaN and Inf: %zu bad, first %zu", r.n_bad, r.first_bad);
    CHECK(isinf(r.max_ratio), "a NaN makes max_ratio %g, not inf", r.max_ratio);
    CHECK(isnan(r.max_abs) && isnan(r.max_rel), "a NaN got: max abs %g, max rel %g, not NaN", r.max_abs, r.max_rel);
    got[1] = -2.0f;
    att_compare(&r, got, ref, 6, 1e-4, 1e-4);
    CHECK(isinf(r.max_abs) && isinf(r.max_rel), "an infinite got: max abs %g, max rel %g, not inf", r.max_abs, r.max_rel);
    got[4] = 5.5f;
    got[1] = NAN;
    att_compare(&r, got, ref, 6, 1e-4, 1e-4);
    CHECK(isnan(r.max_abs), "a NaN before a finite error: max abs %g, not NaN", r.max_abs);
    /* A non-finite ref (a simulated mistake) is matched by the same kind only. */
    float nref[2] = { NAN, -INFINITY }, ngot[2] = { NAN, -INFINITY };
    att_compare(&r, ngot, nref, 2, 1e-4, 1e-4);
    CHECK(r.n_bad == 0 && r.max_abs == 0, "NaN vs NaN, -inf vs -inf: %zu bad, max abs %g", r.n_bad, r.max_abs);
    ngot[1] = INFINITY;
    att_compare(&r, ngot, nref, 2, 1e-4, 1e-4);
    CHECK(r.n_bad == 1, "+inf vs -inf: %zu bad", r.n_bad);
    ngot[1] = 0.0f;   /* an empty row's lse left at 0 */
    att_compare(&r, ngot, nref, 2, 1e-4, 1e-4);
    CHECK(r.n_bad == 1 && isinf(r.max_abs) && isinf(r.max_rel),
          "0 vs -inf: %zu bad, max abs %g, max rel %g, not inf", r.n_bad, r.max_abs, r.max_rel);
    /* Where 0 is expected, a wrong element is off by any factor; a right one counts for nothing. */
    float zref[2] = { 0.0f, 2.0f }, zgot[2] = { 5e-5f, 2.0f };
    att_compare(&r, zgot, zref, 2, 1e-4, 1e-4);
    CHECK(r.n_bad == 0 && r.max_rel == 0, "5e-5 vs 0, within atol: %zu bad, max rel %g, not 0", r.n_bad, r.max_rel);
    zgot[0] = 0.25f;
    att_compare(&r, zgot, zref, 2, 1e-4, 1e-4);
    CHECK(r.n_bad == 1 && isinf(r.max_rel), "0.25 vs 0: %zu bad, max rel %g, not inf", r.n_bad, r.max_rel);
}

/* ---- the table ---- */
static const check_test tests[] = {
    { "rng_pinned", test_rng_pinned },
    { "rng_range", test_rng_range },
    { "softmax_properties", test_softmax_properties },
    { "softmax_masked_rows", test_softmax_masked_rows },
    { "mha_matches_oracle", test_mha_matches_oracle },
    { "mha_shapes_rejected", test_mha_shapes_rejected },
    { "mha_properties", test_mha_properties },
    { "sdpa_cache_offset", test_sdpa_cache_offset },
    { "compare_rules", test_compare_rules },
};

int main(int argc, char **argv)
{
    return check_main(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv, NULL);
}
