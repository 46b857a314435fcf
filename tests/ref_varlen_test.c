/* ref_varlen_test.c: tests of the reference kernel of exercise 68,
 * variable-length packed attention (core/att_ref_varlen.c): each sequence of
 * a pack equals att_attn_ref on that sequence alone, copied out to
 * [1, H, T, D]; empty sequences change nothing; B = 1 is plain causal
 * attention; the statement's worked example; the errors. Built and run by
 * tests/ref.test.mjs.
 *
 *   ref_varlen_test            run every test, print "N passed, N failed"
 *   ref_varlen_test --list     the test names, one a line
 *   ref_varlen_test NAME       run one test
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
    att_fill_uniform(x, n, 68, stream, scale);
    return x;
}

/* Elements of a and b further apart than 1e-6 + 1e-6 |b|; *worst the largest gap. */
static size_t differ(const float *a, const float *b, size_t n, double *worst)
{
    size_t bad = 0;
    *worst = 0.0;
    for (size_t i = 0; i < n; i++) {
        double d = fabs((double)a[i] - b[i]);
        if (d > *worst) *worst = d;
        bad += !(d <= 1e-6 + 1e-6 * fabs((double)b[i]));
    }
    return bad;
}

/* Packs with every edge of the statement: one sequence, empty sequences
 * first, in the middle and last, sequences of one token, a long one. */
typedef struct {
    int B, H, D;
    int cu[12];
} pack;

static const pack packs[] = {
    { 1, 2, 5, { 0, 13 } },
    { 3, 1, 2, { 0, 2, 2, 4 } },
    { 5, 3, 7, { 0, 0, 3, 3, 9, 9 } },
    { 6, 2, 1, { 0, 1, 2, 3, 4, 5, 6 } },
    { 4, 2, 16, { 0, 40, 41, 41, 47 } },
    { 11, 3, 3, { 0, 3, 4, 6, 6, 10, 11, 13, 16, 16, 21, 65 } },
};

/* Token-major [total, H, D] rows t0 .. t0+T-1 into [H, T, D], and back. */
static void to_heads(float *dst, const float *src, int t0, int T, int H, int D)
{
    for (int h = 0; h < H; h++)
        for (int t = 0; t < T; t++)
            memcpy(dst + ((size_t)h * T + t) * D, src + ((size_t)(t0 + t) * H + h) * D, sizeof(float) * D);
}

/* Every sequence of the pack equals causal attention on it alone, computed
 * by att_attn_ref on copies laid out [1, H, T, D] (another layout and
 * another code path: the pack's indexing is what is tested). */
static void test_equals_per_sequence(void)
{
    for (size_t p = 0; p < sizeof packs / sizeof packs[0]; p++) {
        const pack *k0 = &packs[p];
        int B = k0->B, H = k0->H, D = k0->D, total = k0->cu[B];
        size_t n = (size_t)total * H * D;
        float *q = uniform(n, 1, 2.0f), *k = uniform(n, 2, 2.0f), *v = uniform(n, 3, 1.0f);
        float *out = xmalloc(n * sizeof(float));
        double *scratch = xmalloc((size_t)total * sizeof(double));
        att_status st = att_varlen_ref(out, q, k, v, k0->cu, B, total, H, D, scratch);
        CHECK(st == ATT_OK, "pack %zu: %s", p, att_strerror(st));
        float *sq = xmalloc(n * sizeof(float)), *sk = xmalloc(n * sizeof(float));
        float *sv = xmalloc(n * sizeof(float)), *so = xmalloc(n * sizeof(float)), *mine = xmalloc(n * sizeof(float));
        float *fs = xmalloc((size_t)total * sizeof(float));
        for (int b = 0; b < B; b++) {
            int t0 = k0->cu[b], T = k0->cu[b + 1] - t0;
            if (T == 0) continue;
            to_heads(sq, q, t0, T, H, D);
            to_heads(sk, k, t0, T, H, D);
            to_heads(sv, v, t0, T, H, D);
            to_heads(mine, out, t0, T, H, D);
            att_attn_desc a = { .T = T, .S = T, .H = H, .Hkv = H, .D = D, .causal = 1,
                                .scale = 1.0f / sqrtf((float)D), .ldo = D, .hso = (size_t)T * D,
                                .ldq = D, .hsq = (size_t)T * D, .ldkv = D, .hskv = (size_t)T * D };
            CHECK(att_attn_ref(so, sq, sk, sv, NULL, &a, fs) == ATT_OK, "pack %zu sequence %d", p, b);
            double worst;
            size_t bad = differ(mine, so, (size_t)T * H * D, &worst);
            CHECK(bad == 0, "pack %zu sequence %d: %zu differ, worst by %g", p, b, bad, worst);
        }
        free(q), free(k), free(v), free(out), free(scratch);
        free(sq), free(sk), free(sv), free(so), free(mine), free(fs);
    }
}

/* Empty sequences inserted anywhere (before the first, between, after the
 * last) leave every output bit for bit as it was; so does any change to
 * the tokens of another sequence. */
static void test_empty_and_other_sequences_change_nothing(void)
{
    static const int cu[] = { 0, 5, 6, 14 }, padded[] = { 0, 0, 5, 5, 5, 6, 14, 14 };
    int H = 2, D = 3, total = 14;
    size_t n = (size_t)total * H * D;
    float *q = uniform(n, 4, 2.0f), *k = uniform(n, 5, 2.0f), *v = uniform(n, 6, 1.0f);
    float *a = xmalloc(n * sizeof(float)), *b = xmalloc(n * sizeof(float));
    double *scratch = xmalloc((size_t)total * sizeof(double));
    CHECK(att_varlen_ref(a, q, k, v, cu, 3, total, H, D, scratch) == ATT_OK, "pack");
    CHECK(att_varlen_ref(b, q, k, v, padded, 7, total, H, D, scratch) == ATT_OK, "padded pack");
    CHECK(!memcmp(a, b, n * sizeof(float)), "empty sequences changed the outputs");
    /* Sequence 0 and 1 (tokens 0 .. 5) changed: sequence 2 must not move. */
    for (size_t i = 0; i < (size_t)6 * H * D; i++) {
        k[i] += 1.0f;
        v[i] -= 2.0f;
    }
    CHECK(att_varlen_ref(b, q, k, v, cu, 3, total, H, D, scratch) == ATT_OK, "changed pack");
    size_t from = (size_t)6 * H * D;
    CHECK(!memcmp(a + from, b + from, (n - from) * sizeof(float)),
          "sequence 2 moved when the earlier sequences changed");
    CHECK(memcmp(a, b, from * sizeof(float)), "the changed sequences did not move");
    free(q), free(k), free(v), free(a), free(b), free(scratch);
}

/* B = 1: plain causal self-attention over [total, H, D], att_attn_ref in
 * its token-major layout; total = 0 (B sequences all empty) is allowed. */
static void test_one_sequence_is_causal_attention(void)
{
    static const int totals[] = { 1, 2, 7, 33, 64, 65 };
    for (size_t s = 0; s < sizeof totals / sizeof totals[0]; s++) {
        int T = totals[s], H = 3, D = 5, cu[2] = { 0, T };
        size_t n = (size_t)T * H * D;
        float *q = uniform(n, 7, 2.0f), *k = uniform(n, 8, 2.0f), *v = uniform(n, 9, 1.0f);
        float *a = xmalloc(n * sizeof(float)), *b = xmalloc(n * sizeof(float));
        float *fs = xmalloc((size_t)T * sizeof(float));
        double *scratch = xmalloc((size_t)T * sizeof(double));
        CHECK(att_varlen_ref(a, q, k, v, cu, 1, T, H, D, scratch) == ATT_OK, "total %d", T);
        att_attn_desc d = { .T = T, .S = T, .H = H, .Hkv = H, .D = D, .causal = 1,
                            .scale = 1.0f / sqrtf((float)D), .ldo = (size_t)H * D, .hso = D,
                            .ldq = (size_t)H * D, .hsq = D, .ldkv = (size_t)H * D, .hskv = D };
        CHECK(att_attn_ref(b, q, k, v, NULL, &d, fs) == ATT_OK, "total %d: att_attn_ref", T);
        double worst;
        size_t bad = differ(a, b, n, &worst);
        CHECK(bad == 0, "total %d: %zu differ, worst by %g", T, bad, worst);
        free(q), free(k), free(v), free(a), free(b), free(fs), free(scratch);
    }
    static const int empty[] = { 0, 0, 0 };
    float x = 0.0f;
    CHECK(att_varlen_ref(&x, &x, &x, &x, empty, 2, 0, 1, 1, NULL) == ATT_OK, "an all-empty pack");
}

/* The statement's worked example, by hand: tokens 0 and 2 start their
 * sequences (their own v), tokens 1 and 3 mix two values each. */
static void test_worked_example(void)
{
    static const float q[] = { 1, 0, 0, 2, 1, 1, 2, 0 }, k[] = { 1, 0, 0, 1, 1, 1, 0, 1 };
    static const float v[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    static const int cu[] = { 0, 2, 2, 4 };
    /* w = e^1.4142 / (1 + e^1.4142) = 0.80443 */
    double w = exp(sqrt(2.0)) / (1.0 + exp(sqrt(2.0)));
    const double want[] = { 1, 2, (1 - w) * 1 + w * 3, (1 - w) * 2 + w * 4, 5, 6,
                            w * 5 + (1 - w) * 7, w * 6 + (1 - w) * 8 };
    float out[8];
    double scratch[4];
    CHECK(att_varlen_ref(out, q, k, v, cu, 3, 4, 1, 2, scratch) == ATT_OK, "example");
    for (int i = 0; i < 8; i++)
        CHECK(fabs(out[i] - want[i]) < 1e-6, "out[%d] = %.6f, want %.6f", i, out[i], want[i]);
    CHECK(fabs(out[2] - 2.6089) < 1e-4 && fabs(out[6] - 5.3911) < 1e-4, "the statement's numbers: %.4f %.4f",
          out[2], out[6]);
}

/* cu_seqlens not from 0, going down, or not ending at total; a size < 1:
 * ATT_EBADSHAPE, out untouched. */
static void test_errors(void)
{
    static const int bad[][4] = { { 1, 2, 3, 4 }, { 0, 3, 2, 4 }, { 0, 1, 2, 3 }, { 0, 1, 2, 5 } };
    float q[8] = { 0 }, out[8];
    double scratch[8];
    for (int i = 0; i < 4; i++) {
        memset(out, 0x5a, sizeof out);
        CHECK(att_varlen_ref(out, q, q, q, bad[i], 3, 4, 1, 2, scratch) == ATT_EBADSHAPE, "cu %d", i);
        for (int e = 0; e < 8; e++) CHECK(((unsigned char *)out)[4 * e] == 0x5a, "cu %d: out touched", i);
    }
    static const int ok[] = { 0, 2, 2, 4 };
    CHECK(att_varlen_ref(out, q, q, q, ok, 0, 4, 1, 2, scratch) == ATT_EBADSHAPE, "B = 0");
    CHECK(att_varlen_ref(out, q, q, q, ok, 3, 4, 0, 2, scratch) == ATT_EBADSHAPE, "H = 0");
    CHECK(att_varlen_ref(out, q, q, q, ok, 3, 4, 1, 0, scratch) == ATT_EBADSHAPE, "D = 0");
    CHECK(att_varlen_ref(out, q, q, q, ok, 3, -1, 1, 2, scratch) == ATT_EBADSHAPE, "total < 0");
}

static const check_test tests[] = {
    { "equals_per_sequence", test_equals_per_sequence },
    { "empty_and_other_sequences_change_nothing", test_empty_and_other_sequences_change_nothing },
    { "one_sequence_is_causal_attention", test_one_sequence_is_causal_attention },
    { "worked_example", test_worked_example },
    { "errors", test_errors },
};

int main(int argc, char **argv)
{
    return check_main(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv, NULL);
}
