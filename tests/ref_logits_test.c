/* ref_logits_test.c: tests of the reference kernels of exercises 62-63
 * (core/att_ref_logits.c): learned sinks and ALiBi with soft-capping,
 * against plain causal attention (att_attn_ref) where they reduce to it,
 * their limits, and hand-computed examples. Built and run by
 * tests/ref.test.mjs.
 *
 *   ref_logits_test            run every test, print "N passed, N failed"
 *   ref_logits_test --list     the test names, one a line
 *   ref_logits_test NAME       run one test
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
    att_fill_uniform(x, n, 62, stream, scale);
    return x;
}

/* Plain causal attention of [B, H, T, D] queries against [B, H, S, D]
 * keys with the cache offset and a window, through the core's twin. */
static void causal(float *out, const float *q, const float *k, const float *v, int B, int H,
                   int T, int S, int D, int W)
{
    float *scratch = xmalloc((size_t)S * sizeof(float));
    att_attn_desc a = { .T = T, .S = S, .H = 1, .Hkv = 1, .D = D, .causal = 1, .window = W,
                        .scale = 1.0f / sqrtf((float)D), .ldo = D, .hso = 0, .ldq = D, .hsq = 0,
                        .ldkv = D, .hskv = 0 };
    for (size_t bh = 0; bh < (size_t)B * H; bh++) {
        att_status st = att_attn_ref(out + bh * T * D, q + bh * T * D, k + bh * S * D,
                                     v + bh * S * D, NULL, &a, scratch);
        CHECK(st == ATT_OK, "%s", att_strerror(st));
    }
    free(scratch);
}

static double max_diff(const float *a, const float *b, size_t n)
{
    double m = 0.0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs((double)a[i] - b[i]);
        if (!(d <= m)) m = d;   /* a NaN wins */
    }
    return m;
}

static const struct { int B, H, T, D, W; } sink_sizes[] = {
    { 1, 1, 1, 1, 0 }, { 2, 3, 5, 4, 0 }, { 1, 2, 17, 7, 5 }, { 3, 1, 9, 3, 1 }, { 1, 4, 33, 16, 40 },
};

/* ---- 62: learned sinks ---- */

/* A sink of -inf takes nothing: plain causal (or banded) attention. */
static void test_sink_minus_inf_is_causal(void)
{
    for (size_t s = 0; s < sizeof sink_sizes / sizeof sink_sizes[0]; s++) {
        int B = sink_sizes[s].B, H = sink_sizes[s].H, T = sink_sizes[s].T, D = sink_sizes[s].D;
        int W = sink_sizes[s].W;
        size_t n = (size_t)B * H * T * D;
        float *q = uniform(n, 1, 2.0f), *k = uniform(n, 2, 2.0f), *v = uniform(n, 3, 1.0f);
        float *sinks = xmalloc((size_t)H * sizeof(float)), *scratch = xmalloc((size_t)T * sizeof(float));
        float *got = xmalloc(n * sizeof(float)), *want = xmalloc(n * sizeof(float));
        for (int h = 0; h < H; h++) sinks[h] = -INFINITY;
        att_status st = att_learned_sink_ref(got, q, k, v, sinks, B, H, T, D, W, scratch);
        CHECK(st == ATT_OK, "%s", att_strerror(st));
        causal(want, q, k, v, B, H, T, T, D, W);
        CHECK(max_diff(got, want, n) <= 1e-6, "T=%d W=%d: off by %g", T, W, max_diff(got, want, n));
        free(q); free(k); free(v); free(sinks); free(scratch); free(got); free(want);
    }
}

/* A sink far above every score takes nearly all the mass: outputs near 0,
 * and no exp() overflows into NaN. A finite sink shrinks each output row
 * by the real keys' share, 1 - p_sink, exactly as an extra key of value 0. */
static void test_sink_takes_the_mass(void)
{
    int B = 2, H = 3, T = 11, D = 5, W = 4;
    size_t n = (size_t)B * H * T * D;
    float *q = uniform(n, 4, 2.0f), *k = uniform(n, 5, 2.0f), *v = uniform(n, 6, 1.0f);
    float sinks[3] = { 1e4f, 300.0f, 95.0f }, scratch[11];
    float *out = xmalloc(n * sizeof(float));
    CHECK(att_learned_sink_ref(out, q, k, v, sinks, B, H, T, D, W, scratch) == ATT_OK, "refused");
    for (size_t i = 0; i < n; i++) CHECK(fabsf(out[i]) < 1e-30f, "out[%zu] = %g", i, out[i]);
    /* T = 1 with q = 0: the one score is 0, so the key's share is 1 / (1 + e^sink). */
    float q1[2] = { 0, 0 }, k1[2] = { 1, 1 }, v1[2] = { 3, -2 }, s1[1] = { 0.75f }, o1[2];
    CHECK(att_learned_sink_ref(o1, q1, k1, v1, s1, 1, 1, 1, 2, 0, scratch) == ATT_OK, "refused");
    double share = 1.0 / (1.0 + exp(0.75));
    CHECK(fabs(o1[0] - 3 * share) < 1e-6 && fabs(o1[1] + 2 * share) < 1e-6, "%g %g", o1[0], o1[1]);
    free(q); free(k); free(v); free(out);
}

/* The statement's worked example, computed by hand to 4 decimals: the
 * sink unscaled (0.5, not 0.5 / sqrt 2) and the window of 2. */
static void test_sink_example(void)
{
    float q[8] = { 1, 0, 0, 1, 1, 1, 1, -1 }, v[8] = { 1, 0, 0, 1, 1, 1, 2, 0 }, sinks[1] = { 0.5f };
    float out[8], scratch[4];
    static const float want[8] = { 0.5516f, 0.0f, 0.2138f, 0.4337f, 0.5280f, 0.7884f, 1.3645f, 0.1479f };
    CHECK(att_learned_sink_ref(out, q, q, v, sinks, 1, 1, 4, 2, 2, scratch) == ATT_OK, "refused");
    for (int i = 0; i < 8; i++) CHECK(fabsf(out[i] - want[i]) < 6e-5f, "out[%d] = %.5f, want %.4f", i, out[i], want[i]);
}

static void test_sink_errors(void)
{
    float q[4] = { 1, 2, 3, 4 }, out[4] = { 7, 7, 7, 7 }, scratch[2];
    float bad[3] = { NAN, INFINITY, 0.0f };
    CHECK(att_learned_sink_ref(out, q, q, q, &bad[0], 1, 1, 2, 2, 0, scratch) == ATT_EBADSHAPE, "NaN sink");
    CHECK(att_learned_sink_ref(out, q, q, q, &bad[1], 1, 1, 2, 2, 0, scratch) == ATT_EBADSHAPE, "+inf sink");
    CHECK(att_learned_sink_ref(out, q, q, q, &bad[2], 1, 1, 2, 2, -1, scratch) == ATT_EBADSHAPE, "W < 0");
    CHECK(att_learned_sink_ref(out, q, q, q, &bad[2], 1, 1, 0, 2, 0, scratch) == ATT_EBADSHAPE, "T = 0");
    for (int i = 0; i < 4; i++) CHECK(out[i] == 7.0f, "out[%d] touched", i);
}

/* ---- 63: ALiBi and soft-capping ---- */

/* Neither a cap nor ALiBi: causal attention with the cache offset; a cap
 * going to infinity tends to no cap (c tanh(s / c) = s - s^3 / (3 c^2) + ...). */
static void test_cap_limits(void)
{
    static const struct { int B, H, T, S, D; } sz[] = {
        { 1, 1, 1, 1, 1 }, { 2, 3, 5, 9, 4 }, { 1, 8, 17, 17, 7 }, { 3, 2, 1, 13, 16 },
    };
    for (size_t s = 0; s < sizeof sz / sizeof sz[0]; s++) {
        int B = sz[s].B, H = sz[s].H, T = sz[s].T, S = sz[s].S, D = sz[s].D;
        size_t nq = (size_t)B * H * T * D, nk = (size_t)B * H * S * D;
        float *q = uniform(nq, 7, 3.0f), *k = uniform(nk, 8, 2.0f), *v = uniform(nk, 9, 1.0f);
        float *plain = xmalloc(nq * sizeof(float)), *want = xmalloc(nq * sizeof(float));
        float *big = xmalloc(nq * sizeof(float)), *scratch = xmalloc((size_t)S * sizeof(float));
        CHECK(att_alibi_softcap_ref(plain, q, k, v, B, H, T, S, D, 0.0f, 0, scratch) == ATT_OK, "refused");
        causal(want, q, k, v, B, H, T, S, D, 0);
        CHECK(max_diff(plain, want, nq) <= 1e-6, "S=%d: %g from causal", S, max_diff(plain, want, nq));
        CHECK(att_alibi_softcap_ref(big, q, k, v, B, H, T, S, D, 1e5f, 0, scratch) == ATT_OK, "refused");
        CHECK(max_diff(big, plain, nq) <= 1e-6, "cap 1e5: %g from no cap", max_diff(big, plain, nq));
        /* A small cap keeps every score in (-c, c): scores past expf's range still
         * give finite outputs, convex combinations of the values. */
        for (size_t i = 0; i < nq; i++) q[i] *= 1e3f;
        CHECK(att_alibi_softcap_ref(big, q, k, v, B, H, T, S, D, 1.0f, 0, scratch) == ATT_OK, "refused");
        for (size_t i = 0; i < nq; i++) CHECK(isfinite(big[i]) && fabsf(big[i]) <= 1.0f, "out[%zu] = %g", i, big[i]);
        free(q); free(k); free(v); free(plain); free(want); free(big); free(scratch);
    }
}

/* The slopes are 2^-(h+1) for H = 8; one head has slope 2^-8. */
static void test_alibi_slopes(void)
{
    for (int h = 0; h < 8; h++)
        CHECK(att_alibi_slope(h, 8) == ldexp(1.0, -(h + 1)), "h=%d: %g", h, att_alibi_slope(h, 8));
    CHECK(att_alibi_slope(0, 1) == 1.0 / 256, "%g", att_alibi_slope(0, 1));
    CHECK(att_alibi_slope(3, 4) == 1.0 / 256 && att_alibi_slope(0, 4) == 0.25, "H = 4");
}

/* H = 1, all scores 0 (q = 0): only the bias (j - pos) / 256 decides, so
 * with values e_j the output is the softmax of the biases: by hand. */
static void test_alibi_one_head(void)
{
    enum { S = 4, D = 4 };
    float q[2 * D] = { 0 }, k[S * D], v[S * D], out[2 * D], scratch[S];
    for (int j = 0; j < S * D; j++) {
        k[j] = (float)(j % 3) - 1.0f;
        v[j] = j / D == j % D ? 1.0f : 0.0f;   /* v_j = e_j */
    }
    CHECK(att_alibi_softcap_ref(out, q, k, v, 1, 1, 2, S, D, 0.0f, 1, scratch) == ATT_OK, "refused");
    /* query 0 at pos 2 sees keys 0..2 with biases -2/256, -1/256, 0; query 1 all four. */
    for (int i = 0; i < 2; i++) {
        int pos = i + 2;
        double z = 0.0;
        for (int j = 0; j <= pos; j++) z += exp((j - pos) / 256.0);
        for (int j = 0; j < S; j++) {
            double want = j <= pos ? exp((j - pos) / 256.0) / z : 0.0;
            CHECK(fabs(out[i * D + j] - want) < 1e-6, "query %d, key %d: %g, want %g", i, j, out[i * D + j], want);
        }
    }
    /* With a cap the zero scores stay 0 and the bias is added after it: the same. */
    float capped[2 * D];
    CHECK(att_alibi_softcap_ref(capped, q, k, v, 1, 1, 2, S, D, 0.5f, 1, scratch) == ATT_OK, "refused");
    CHECK(max_diff(capped, out, 2 * D) == 0.0, "cap moved zero scores: %g", max_diff(capped, out, 2 * D));
}

/* The statement's worked example, by hand to 4 decimals. */
static void test_alibi_example(void)
{
    float q[8] = { 2, 0, 1, 1, 0, 2, 1, -1 }, k[12] = { 1, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1 };
    float out[8], scratch[3];
    static const float want[8] = { 0.7605f, 0.2395f, 0.7343f, 0.7504f, 0.2277f, 0.7723f, 0.8541f, 0.4348f };
    CHECK(att_alibi_softcap_ref(out, q, k, k, 1, 2, 2, 3, 2, 2.0f, 1, scratch) == ATT_OK, "refused");
    for (int i = 0; i < 8; i++) CHECK(fabsf(out[i] - want[i]) < 6e-5f, "out[%d] = %.5f, want %.4f", i, out[i], want[i]);
}

static void test_alibi_errors(void)
{
    float q[4] = { 1, 2, 3, 4 }, out[4] = { 7, 7, 7, 7 }, scratch[2];
    CHECK(att_alibi_softcap_ref(out, q, q, q, 1, 1, 2, 1, 2, 0.0f, 0, scratch) == ATT_EBADSHAPE, "S < T");
    CHECK(att_alibi_softcap_ref(out, q, q, q, 1, 1, 2, 2, 2, -1.0f, 0, scratch) == ATT_EBADSHAPE, "cap < 0");
    CHECK(att_alibi_softcap_ref(out, q, q, q, 1, 1, 2, 2, 2, NAN, 0, scratch) == ATT_EBADSHAPE, "cap NaN");
    CHECK(att_alibi_softcap_ref(out, q, q, q, 1, 0, 2, 2, 2, 0.0f, 1, scratch) == ATT_EBADSHAPE, "H = 0");
    for (int i = 0; i < 4; i++) CHECK(out[i] == 7.0f, "out[%d] touched", i);
}

static const check_test tests[] = {
    { "sink_minus_inf_is_causal", test_sink_minus_inf_is_causal },
    { "sink_takes_the_mass", test_sink_takes_the_mass },
    { "sink_example", test_sink_example },
    { "sink_errors", test_sink_errors },
    { "cap_limits", test_cap_limits },
    { "alibi_slopes", test_alibi_slopes },
    { "alibi_one_head", test_alibi_one_head },
    { "alibi_example", test_alibi_example },
    { "alibi_errors", test_alibi_errors },
};

int main(int argc, char **argv)
{
    return check_main(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv, NULL);
}
