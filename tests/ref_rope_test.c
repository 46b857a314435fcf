/* ref_rope_test.c: tests of the RoPE reference kernels of exercises 57 and
 * 58 (core/att_ref_rope.c): the properties RoPE is made for (a score
 * depends only on the distance of the positions; the offset is the cache
 * length), its edge rules, a hand-computed example, and decoding with
 * rotated keys in the cache equals RoPE prefill. Built and run by
 * tests/ref.test.mjs.
 *
 *   ref_rope_test            run every test, print "N passed, N failed"
 *   ref_rope_test --list     the test names, one a line
 *   ref_rope_test NAME       run one test
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
    att_fill_uniform(x, n, 57, stream, scale);
    return x;
}

/* ---- 57: RoPE ---- */

/* The statement's worked example, computed by hand there. */
static void test_rope_example(void)
{
    float x[8] = { 1, 0, 2, 1, 0, 1, 1, 0 };
    static const float want[8] = { -1.1426f, -0.0998f, 1.9221f, 0.9950f,
                                   -0.9093f, 0.9801f, -0.4161f, 0.1987f };
    int offset[1] = { 1 };
    att_status st = att_rope_ref(x, offset, 1, 1, 2, 4, 100.0);
    CHECK(st == ATT_OK, "%s", att_strerror(st));
    for (int i = 0; i < 8; i++) CHECK(fabsf(x[i] - want[i]) < 1e-4f, "x[%d] = %.5f, want %.4f", i, x[i], want[i]);
}

/* Position 0 changes nothing; D = 2 turns by exactly p radians; an odd D, a
 * negative offset or theta <= 0 is refused without touching x. */
static void test_rope_edges(void)
{
    float *x = uniform(3 * 5 * 12, 1, 1.0f), *x0 = xmalloc(3 * 5 * 12 * sizeof(float));
    memcpy(x0, x, 3 * 5 * 12 * sizeof(float));
    int zero[3] = { 0, 0, 0 };
    CHECK(att_rope_ref(x, zero, 3, 5, 1, 12, 10000.0) == ATT_OK, "offset 0");
    CHECK(!memcmp(x, x0, 3 * 5 * 12 * sizeof(float)), "position 0 changed x");
    int bad[3] = { 0, -1, 0 };
    CHECK(att_rope_ref(x, bad, 3, 1, 5, 12, 10000.0) == ATT_EBADSHAPE, "a negative offset accepted");
    CHECK(att_rope_ref(x, zero, 3, 1, 5, 11, 10000.0) == ATT_EBADSHAPE, "an odd D accepted");
    CHECK(att_rope_ref(x, zero, 3, 1, 5, 12, 0.0) == ATT_EBADSHAPE, "theta 0 accepted");
    CHECK(!memcmp(x, x0, 3 * 5 * 12 * sizeof(float)), "a refused call changed x");
    for (int p = 0; p < 1500; p += 37) {
        float v[2] = { 0.6f, -0.8f };
        int off[1] = { p };
        att_rope_ref(v, off, 1, 1, 1, 2, 10000.0);
        double c = cos(p), s = sin(p);
        CHECK(fabs(v[0] - (0.6 * c + 0.8 * s)) < 1e-6 && fabs(v[1] - (-0.8 * c + 0.6 * s)) < 1e-6,
              "D = 2 at p = %d: (%g, %g)", p, v[0], v[1]);
    }
    free(x);
    free(x0);
}

/* What RoPE is for: q turned to m and k turned to n have the dot product of
 * q turned to m + s and k to n + s, for any shift s; and lengths are kept. */
static void test_rope_scores_are_relative(void)
{
    static const int D[] = { 2, 6, 16, 18, 64, 128 };
    for (size_t d = 0; d < sizeof D / sizeof D[0]; d++)
        for (int m = 0; m < 40; m += 7)
            for (int n = 0; n < 40; n += 11) {
                float *q = uniform(2 * (size_t)D[d], 2, 1.0f), *k = uniform(2 * (size_t)D[d], 3, 1.0f);
                memcpy(q + D[d], q, D[d] * sizeof(float));
                memcpy(k + D[d], k, D[d] * sizeof(float));
                int pq[2] = { m, m + 500 }, pk[2] = { n, n + 500 };   /* two sequences, shifted by 500 */
                double len0 = 0, len1 = 0;
                for (int c = 0; c < D[d]; c++) len0 += (double)q[c] * q[c];
                att_rope_ref(q, pq, 2, 1, 1, D[d], 10000.0);
                att_rope_ref(k, pk, 2, 1, 1, D[d], 10000.0);
                double s0 = 0, s1 = 0;
                for (int c = 0; c < D[d]; c++) {
                    s0 += (double)q[c] * k[c];
                    s1 += (double)q[D[d] + c] * k[D[d] + c];
                    len1 += (double)q[D[d] + c] * q[D[d] + c];
                }
                CHECK(fabs(s0 - s1) < 1e-5, "D=%d m=%d n=%d: %.8f vs %.8f after the shift", D[d], m, n, s0, s1);
                CHECK(fabs(len0 - len1) < 1e-5, "D=%d: the length moved from %g to %g", D[d], len0, len1);
                free(q);
                free(k);
            }
}

/* The offset is the cache length: T tokens at offset o are rotated as the
 * last T of o + T tokens from offset 0, bit for bit, sequence by sequence. */
static void test_rope_offset_is_cache_length(void)
{
    enum { B = 3, H = 2, T = 5, D = 10 };
    int offset[B] = { 7, 0, 1000 }, zero[1] = { 0 };
    float *x = uniform((size_t)B * H * T * D, 4, 1.0f), *part = xmalloc((size_t)B * H * T * D * sizeof(float));
    memcpy(part, x, (size_t)B * H * T * D * sizeof(float));
    att_rope_ref(part, offset, B, H, T, D, 500000.0);
    int bad = 0;
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            int n = offset[b] + T;
            float *whole = uniform((size_t)n * D, 5, 1.0f);
            memcpy(whole + (size_t)offset[b] * D, x + ((size_t)b * H + h) * T * D, (size_t)T * D * sizeof(float));
            att_rope_ref(whole, zero, 1, 1, n, D, 500000.0);
            bad += memcmp(whole + (size_t)offset[b] * D, part + ((size_t)b * H + h) * T * D,
                          (size_t)T * D * sizeof(float)) != 0;
            free(whole);
        }
    CHECK(bad == 0, "%d (sequence, head) pairs differ from the longer prefix", bad);
    free(x);
    free(part);
}

/* ---- 58: decode with RoPE in the cache ---- */

/* The statement's worked example: out, the rotated key in row 2, rows 0, 1
 * and 3 untouched, len 3; q and k themselves unchanged. */
static void test_rope_decode_example(void)
{
    float kc[8] = { 1, 0, 0, 1, 9, 9, 9, 9 }, vc[8] = { 1, 2, 3, 4, 9, 9, 9, 9 };
    const float q[2] = { 1, 0 }, k[2] = { 1, 0 }, v[2] = { 0, -2 };
    float out[2], scratch[4 + 4];
    int len[1] = { 2 };
    att_status st = att_rope_decode_step_ref(out, kc, vc, len, q, k, v, 1, 4, 1, 2, 10000.0, scratch);
    CHECK(st == ATT_OK, "%s", att_strerror(st));
    CHECK(fabsf(out[0] - 1.3799f) < 1e-4f && fabsf(out[1] - 1.0785f) < 1e-4f, "out = (%g, %g)", out[0], out[1]);
    CHECK(fabsf(kc[4] + 0.4161f) < 1e-4f && fabsf(kc[5] - 0.9093f) < 1e-4f, "row 2 = (%g, %g)", kc[4], kc[5]);
    CHECK(kc[0] == 1 && kc[1] == 0 && kc[2] == 0 && kc[3] == 1 && kc[6] == 9 && kc[7] == 9, "other rows changed");
    CHECK(vc[4] == 0 && vc[5] == -2 && len[0] == 3 && q[0] == 1 && k[0] == 1, "v row, len or inputs wrong");
    int full[1] = { 4 };
    CHECK(att_rope_decode_step_ref(out, kc, vc, full, q, k, v, 1, 4, 1, 2, 10000.0, scratch) == ATT_ECACHEFULL,
          "a full cache accepted");
}

/* Decoding T tokens one by one from an empty cache equals RoPE prefill: q
 * and k of every token rotated at 0 .. T-1 (att_rope_ref), then causal
 * attention (att_sdpa_ref), for every head and position, bit for bit; the
 * cache ends holding exactly the rotated keys. */
static void test_rope_decode_equals_prefill(void)
{
    static const struct { int B, T, H, D; double theta; } sz[] = {
        { 1, 1, 1, 2, 10000 }, { 2, 3, 1, 6, 10000 }, { 1, 7, 3, 4, 100 }, { 3, 17, 2, 18, 500000 },
        { 1, 33, 1, 16, 10000 }, { 2, 65, 2, 8, 10000 },
    };
    for (size_t z = 0; z < sizeof sz / sizeof sz[0]; z++) {
        int B = sz[z].B, T = sz[z].T, H = sz[z].H, D = sz[z].D, S_max = T + 2;
        size_t row = (size_t)H * D, all = (size_t)B * T * row;
        /* Tokens [B, T, H, D]: position-major, like the cache. */
        float *q = uniform(all, 11, 2.0f), *k = uniform(all, 12, 2.0f), *v = uniform(all, 13, 1.0f);
        float *kc = uniform((size_t)B * S_max * row, 14, 9.0f), *vc = uniform((size_t)B * S_max * row, 15, 9.0f);
        float *dec = xmalloc(all * sizeof(float)), *pre = xmalloc((size_t)T * D * sizeof(float));
        float *scratch = xmalloc(((size_t)S_max + 2 * B * row) * sizeof(float));
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
            att_status st = att_rope_decode_step_ref(dec + (size_t)t * B * row, kc, vc, len, qn, kn, vn, B,
                                                     S_max, H, D, sz[z].theta, scratch);
            CHECK(st == ATT_OK, "step %d: %s", t, att_strerror(st));
        }
        /* Prefill: rotate q and k ([B*T*H] vectors of D, token t of
         * sequence b at t: one "sequence" per (b, t, h) with offset t). */
        int *pos = xmalloc((size_t)B * T * H * sizeof(int));
        for (int b = 0; b < B; b++)
            for (int t = 0; t < T; t++)
                for (int h = 0; h < H; h++) pos[((size_t)b * T + t) * H + h] = t;
        att_rope_ref(q, pos, B * T * H, 1, 1, D, sz[z].theta);
        att_rope_ref(k, pos, B * T * H, 1, 1, D, sz[z].theta);
        float scale = 1.0f / sqrtf((float)D);
        int bad = 0;
        for (int b = 0; b < B; b++)
            for (int h = 0; h < H; h++) {
                size_t base = (size_t)b * T * row + (size_t)h * D;
                att_sdpa_ref(pre, D, q + base, (int)row, k + base, v + base, (int)row, NULL, T, T, D, 1,
                             scale, scratch);
                for (int t = 0; t < T; t++)
                    for (int c = 0; c < D; c++) {
                        bad += pre[(size_t)t * D + c] != dec[((size_t)t * B + b) * row + (size_t)h * D + c];
                        bad += kc[((size_t)b * S_max + t) * row + (size_t)h * D + c] != k[base + (size_t)t * row + c];
                    }
            }
        CHECK(bad == 0, "B=%d T=%d H=%d D=%d: %d elements differ from RoPE prefill", B, T, H, D, bad);
        for (int b = 0; b < B; b++) CHECK(len[b] == T, "len[%d] = %d after %d steps", b, len[b], T);
        free(q); free(k); free(v); free(kc); free(vc); free(dec); free(pre); free(scratch);
        free(qn); free(kn); free(vn); free(len); free(pos);
    }
}

static const check_test tests[] = {
    { "rope_example", test_rope_example },
    { "rope_edges", test_rope_edges },
    { "rope_scores_are_relative", test_rope_scores_are_relative },
    { "rope_offset_is_cache_length", test_rope_offset_is_cache_length },
    { "rope_decode_example", test_rope_decode_example },
    { "rope_decode_equals_prefill", test_rope_decode_equals_prefill },
};

int main(int argc, char **argv)
{
    return check_main(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv, NULL);
}
