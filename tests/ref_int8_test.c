/* ref_int8_test.c: tests of the reference kernels of exercise 64, a KV cache
 * stored as symmetric int8 per (position, head) (core/att_ref_int8.c): values
 * that int8 holds exactly round-trip, the step equals the float step over the
 * dequantised cache, the rounding and zero-vector rules, and a hand-computed
 * example. Built and run by tests/ref.test.mjs.
 *
 *   ref_int8_test            run every test, print "N passed, N failed"
 *   ref_int8_test --list     the test names, one a line
 *   ref_int8_test NAME       run one test
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "att.h"
#include "check.h"

/* An integer in [-127, 127] from (stream, i). */
static int int8_at(uint64_t stream, uint64_t i)
{
    return (int)(att_rng_u64(64, stream, i) % 255) - 127;
}

/* A scale int8 values times it are exact in float: m / 2^10, m odd < 2^12,
 * so that 127 * scale has at most 19 significant bits. */
static float exact_scale(uint64_t stream, uint64_t i)
{
    return (float)(2 * (att_rng_u64(64, stream, i) % 2048) + 1) / 1024.0f;
}

/* x[c] = k_c * s with |k_c| <= 127 and one k_c = +-127 (so max|x| / 127 is s
 * exactly); the integers into k. */
static void exact_vector(float *x, int *k, int n, float s, uint64_t stream, uint64_t at)
{
    for (int c = 0; c < n; c++) k[c] = int8_at(stream, at + (uint64_t)c);
    k[(int)(att_rng_u64(64, stream + 1, at) % (uint64_t)n)] = at % 2 ? -127 : 127;
    for (int c = 0; c < n; c++) x[c] = (float)k[c] * s;
}

/* Values that are exactly k * s quantise to k and s, bit for bit. */
static void test_quantize_round_trips(void)
{
    static const int ns[] = { 1, 2, 7, 16, 17, 33, 128 };
    for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++)
        for (uint64_t r = 0; r < 20; r++) {
            int n = ns[t], k[128];
            float x[128], s = exact_scale(1, t * 100 + r), scale;
            signed char q8[128];
            exact_vector(x, k, n, s, 2, (t * 100 + r) * 256);
            CHECK(att_quantize_int8_ref(q8, &scale, x, n) == ATT_OK, "n=%d", n);
            CHECK(scale == s, "n=%d: scale %.9g, values made with %.9g", n, scale, s);
            int bad = 0;
            for (int c = 0; c < n; c++) bad += q8[c] != k[c];
            CHECK(bad == 0, "n=%d s=%g: %d values did not round-trip", n, s, bad);
        }
}

/* The rules the statement pins: to nearest with ties away from zero (the
 * scale here is exactly 1, so the halves are exact); a zero vector has
 * scale 0 and zeros; the largest value is +-127 and -128 never appears; a
 * hand-computed vector; n < 1 is refused. */
static void test_quantize_rules(void)
{
    float ties[] = { 127.0f, 0.5f, -0.5f, 1.5f, 2.5f, -2.5f, 0.49f, -126.5f }, scale;
    signed char q8[8], want[] = { 127, 1, -1, 2, 3, -3, 0, -127 };
    CHECK(att_quantize_int8_ref(q8, &scale, ties, 8) == ATT_OK && scale == 1.0f, "scale %g", scale);
    for (int c = 0; c < 8; c++) CHECK(q8[c] == want[c], "%g: %d, want %d", ties[c], q8[c], want[c]);
    float zero[3] = { 0.0f, -0.0f, 0.0f };
    signed char z8[3] = { 5, 5, 5 };
    CHECK(att_quantize_int8_ref(z8, &scale, zero, 3) == ATT_OK, "zero vector");
    CHECK(scale == 0.0f && z8[0] == 0 && z8[1] == 0 && z8[2] == 0, "zero vector: scale %g, %d %d %d",
          scale, z8[0], z8[1], z8[2]);
    /* 2 / 127 = 0.015748; -1.3 / it = -82.55 -> -83; 0.1 / it = 6.35 -> 6. */
    float x[3] = { 2.0f, -1.3f, 0.1f };
    signed char h8[3];
    att_quantize_int8_ref(h8, &scale, x, 3);
    CHECK(h8[0] == 127 && h8[1] == -83 && h8[2] == 6, "hand example: %d %d %d", h8[0], h8[1], h8[2]);
    CHECK(fabsf(scale - 0.015748031f) < 1e-9f, "hand example: scale %.9g", scale);
    float neg[2] = { -3.0f, 1.0f };
    att_quantize_int8_ref(h8, &scale, neg, 2);
    CHECK(h8[0] == -127 && h8[1] == 42, "a negative maximum: %d %d", h8[0], h8[1]);
    CHECK(att_quantize_int8_ref(h8, &scale, x, 0) == ATT_EBADSHAPE, "n = 0 must be refused");
}

/* The int8 step equals exercise 52's float step over the dequantised cache,
 * bit for bit, when the new token's values are exact in int8 (so that its
 * dequantised row is its float k and v): the same floats reach the same
 * attention. The new row holds the token's integers and scales, the rows
 * past it are untouched, and every length advances by one. */
static void test_int8_equals_float_decode(void)
{
    static const struct { int B, S_max, H, D; } sz[] = {
        { 1, 1, 1, 1 }, { 2, 3, 1, 5 }, { 3, 7, 3, 4 }, { 5, 17, 2, 7 }, { 2, 33, 4, 16 }, { 3, 65, 2, 17 },
    };
    for (size_t t = 0; t < sizeof sz / sizeof sz[0]; t++) {
        int B = sz[t].B, S_max = sz[t].S_max, H = sz[t].H, D = sz[t].D;
        size_t row = (size_t)H * D, cache = (size_t)B * S_max * row, scales = (size_t)B * S_max * H;
        signed char *kq = xmalloc(cache), *vq = xmalloc(cache), *kq0 = xmalloc(cache), *vq0 = xmalloc(cache);
        float *ks = xmalloc(scales * sizeof(float)), *vs = xmalloc(scales * sizeof(float));
        float *kf = xmalloc(cache * sizeof(float)), *vf = xmalloc(cache * sizeof(float));
        float *q = xmalloc(B * row * sizeof(float)), *k = xmalloc(B * row * sizeof(float));
        float *v = xmalloc(B * row * sizeof(float));
        float *out = xmalloc(B * row * sizeof(float)), *want = xmalloc(B * row * sizeof(float));
        int *kint = xmalloc(B * row * sizeof(int)), *vint = xmalloc(B * row * sizeof(int));
        int *len = xmalloc(B * sizeof(int)), *len_f = xmalloc(B * sizeof(int));
        float *scratch = xmalloc(att_int8_decode_scratch_floats(S_max, D) * sizeof(float));
        for (size_t i = 0; i < cache; i++) {
            kq[i] = (signed char)int8_at(10 + t, i);
            vq[i] = (signed char)int8_at(20 + t, i);
        }
        for (size_t i = 0; i < scales; i++) {
            ks[i] = exact_scale(30 + t, i);
            vs[i] = exact_scale(40 + t, i);
        }
        for (size_t i = 0; i < cache; i++) {   /* the float cache 52's step sees */
            kf[i] = (float)kq[i] * ks[i / D];
            vf[i] = (float)vq[i] * vs[i / D];
        }
        memcpy(kq0, kq, cache);
        memcpy(vq0, vq, cache);
        att_fill_uniform(q, B * row, 64, 50 + t, 2.0f);
        for (int b = 0; b < B; b++) {
            len[b] = len_f[b] = b == 0 ? S_max - 1 : (int)(att_rng_u64(64, 60 + t, (uint64_t)b) % (uint64_t)S_max);
            for (int h = 0; h < H; h++) {
                size_t at = (size_t)b * row + (size_t)h * D;
                exact_vector(k + at, kint + at, D, exact_scale(70 + t, at), 80 + t, at * 2);
                exact_vector(v + at, vint + at, D, exact_scale(90 + t, at), 100 + t, at * 2 + 1);
            }
        }
        CHECK(att_int8_decode_step_ref(out, kq, vq, ks, vs, len, q, k, v, B, S_max, H, D, scratch) == ATT_OK,
              "int8 step");
        CHECK(att_decode_step_ref(want, kf, vf, len_f, q, k, v, B, S_max, H, D, scratch) == ATT_OK,
              "float step");
        int bad = 0, cache_bad = 0;
        for (size_t i = 0; i < B * row; i++) bad += out[i] != want[i];
        for (int b = 0; b < B; b++) {
            CHECK(len[b] == len_f[b], "b=%d: len %d, the float step %d", b, len[b], len_f[b]);
            for (int p = 0; p < S_max; p++)
                for (size_t c = 0; c < row; c++) {
                    size_t i = ((size_t)b * S_max + p) * row + c;
                    int fresh = p == len[b] - 1;
                    cache_bad += kq[i] != (fresh ? kint[b * row + c] : kq0[i]);
                    cache_bad += vq[i] != (fresh ? vint[b * row + c] : vq0[i]);
                    if (fresh && c % D == 0) {
                        size_t h = c / D;
                        cache_bad += ks[((size_t)b * S_max + p) * H + h] != exact_scale(70 + t, b * row + c);
                        cache_bad += vs[((size_t)b * S_max + p) * H + h] != exact_scale(90 + t, b * row + c);
                    }
                }
        }
        CHECK(bad == 0, "B=%d S_max=%d H=%d D=%d: %d outputs differ from the float step", B, S_max, H, D, bad);
        CHECK(cache_bad == 0, "B=%d S_max=%d H=%d D=%d: %d cache elements wrong", B, S_max, H, D, cache_bad);
        free(kq); free(vq); free(kq0); free(vq0); free(ks); free(vs); free(kf); free(vf); free(q);
        free(k); free(v); free(out); free(want); free(kint); free(vint); free(len); free(len_f);
        free(scratch);
    }
}

/* The statement's worked example (visible case `example`), by hand: the new
 * token is attended dequantised (0.3 is stored as 76 * 0.5/127 = 0.299213). */
static void test_int8_example(void)
{
    signed char kq[] = { 100, -50, 9, 9, 9, 9 }, vq[] = { 50, 100, 9, 9, 9, 9 };
    float ks[] = { 0.01f, 5.0f, 5.0f }, vs[] = { 0.02f, 5.0f, 5.0f };
    float q[] = { 1.0f, 2.0f }, k[] = { 0.3f, 0.5f }, v[] = { 2.0f, -0.45f }, out[2], scratch[16];
    int len[] = { 1 };
    CHECK(att_int8_decode_step_ref(out, kq, vq, ks, vs, len, q, k, v, 1, 3, 1, 2, scratch) == ATT_OK, "ok");
    CHECK(kq[2] == 76 && kq[3] == 127 && vq[2] == 127 && vq[3] == -29, "row 1: %d %d, %d %d", kq[2],
          kq[3], vq[2], vq[3]);
    CHECK(fabsf(ks[1] - 0.5f / 127) < 1e-9f && fabsf(vs[1] - 2.0f / 127) < 1e-9f, "scales %g %g", ks[1], vs[1]);
    CHECK(kq[4] == 9 && ks[2] == 5.0f && len[0] == 2, "stale row or len touched");
    /* scores (0, (0.299213 + 1) / sqrt 2 = 0.918682), p = (0.285227, 0.714773) */
    CHECK(fabsf(out[0] - 1.714773f) < 2e-6f && fabsf(out[1] - 0.244021f) < 2e-6f, "out %.7g %.7g",
          out[0], out[1]);
    int full[] = { 3 };
    CHECK(att_int8_decode_step_ref(out, kq, vq, ks, vs, full, q, k, v, 1, 3, 1, 2, scratch) == ATT_ECACHEFULL,
          "len = S_max must be refused");
}

static const check_test tests[] = {
    { "quantize_round_trips", test_quantize_round_trips },
    { "quantize_rules", test_quantize_rules },
    { "int8_equals_float_decode", test_int8_equals_float_decode },
    { "int8_example", test_int8_example },
};

int main(int argc, char **argv)
{
    return check_main(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv, NULL);
}
