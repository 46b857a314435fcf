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

static const check_test tests[] = {
    { "rope_example", test_rope_example },
    { "rope_edges", test_rope_edges },
    { "rope_scores_are_relative", test_rope_scores_are_relative },
    { "rope_offset_is_cache_length", test_rope_offset_is_cache_length },
};

int main(int argc, char **argv)
{
    return check_main(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv, NULL);
}
