/* ref_linear_test.c: tests of the reference of causal linear attention
 * (core/att_ref_linear.c, exercise 67): its recurrent form equals the
 * parallel form A = (phi(Q) phi(K)^T) o causal mask, out = A V / rowsum(A),
 * computed here in double apart from the core; T = 1 gives out = v; each
 * (batch, head) is its own sequence; the future changes nothing; and a
 * small example worked by hand. Built and run by tests/ref.test.mjs.
 *
 *   ref_linear_test            run every test, print "N passed, N failed"
 *   ref_linear_test --list     the test names, one a line
 *   ref_linear_test NAME       run one test
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
    att_fill_uniform(x, n, 67, stream, scale);
    return x;
}

static double feature(double x)
{
    return x > 0.0 ? x + 1.0 : exp(x);
}

static att_status run(float *out, const float *q, const float *k, const float *v, int B, int H,
                      int T, int D, int E)
{
    double *scratch = xmalloc(att_linear_attn_scratch_doubles(D, E) * sizeof(double));
    att_status st = att_linear_attn_ref(out, q, k, v, B, H, T, D, E, scratch);
    free(scratch);
    return st;
}

/* The parallel form, from the statement: the T x T weights of one head,
 * masked to j <= i, then each row a weighted average of the values. */
static void parallel(double *out, const float *q, const float *k, const float *v, int B, int H,
                     int T, int D, int E)
{
    double *a = xmalloc(sizeof(double) * (size_t)T * T);
    for (size_t bh = 0; bh < (size_t)B * H; bh++) {
        const float *qb = q + bh * T * D, *kb = k + bh * T * D, *vb = v + bh * T * E;
        for (int i = 0; i < T; i++)
            for (int j = 0; j < T; j++) {
                double w = 0.0;
                for (int c = 0; c < D; c++)
                    w += feature(qb[(size_t)i * D + c]) * feature(kb[(size_t)j * D + c]);
                a[(size_t)i * T + j] = j <= i ? w : 0.0;
            }
        for (int i = 0; i < T; i++) {
            double rowsum = 0.0;
            for (int j = 0; j < T; j++) rowsum += a[(size_t)i * T + j];
            for (int e = 0; e < E; e++) {
                double acc = 0.0;
                for (int j = 0; j < T; j++) acc += a[(size_t)i * T + j] * vb[(size_t)j * E + e];
                out[(bh * T + i) * E + e] = acc / rowsum;
            }
        }
    }
    free(a);
}

typedef struct {
    int B, H, T, D, E;
    float range;   /* q, k ~ U[-range, range) */
} shape;

/* The recurrent reference equals the parallel form to float rounding, on
 * shapes with T = 1, D = 1, E = 1, E > D, E < D, several heads and
 * batches, and inputs wide enough that phi spans e^-4 .. 5. */
static void test_recurrent_equals_parallel(void)
{
    static const shape sz[] = {
        { 1, 1, 1, 1, 1, 2.0f }, { 1, 1, 5, 1, 1, 2.0f }, { 2, 3, 7, 3, 5, 1.5f },
        { 1, 2, 33, 8, 3, 1.5f }, { 3, 1, 17, 1, 9, 4.0f }, { 1, 1, 64, 16, 16, 1.0f },
        { 2, 2, 1, 6, 4, 2.0f },
    };
    for (size_t n = 0; n < sizeof sz / sizeof sz[0]; n++) {
        const shape *z = &sz[n];
        size_t nq = (size_t)z->B * z->H * z->T * z->D, nv = (size_t)z->B * z->H * z->T * z->E;
        float *q = uniform(nq, 10 * n + 1, z->range), *k = uniform(nq, 10 * n + 2, z->range);
        float *v = uniform(nv, 10 * n + 3, 1.0f), *out = xmalloc(nv * sizeof(float));
        double *want = xmalloc(nv * sizeof(double));
        att_status st = run(out, q, k, v, z->B, z->H, z->T, z->D, z->E);
        CHECK(st == ATT_OK, "%s", att_strerror(st));
        parallel(want, q, k, v, z->B, z->H, z->T, z->D, z->E);
        for (size_t e = 0; e < nv; e++)
            CHECK(fabs(out[e] - want[e]) <= 1e-6 + 1e-6 * fabs(want[e]),
                  "B=%d H=%d T=%d D=%d E=%d: out[%zu] = %.9g, parallel form %.9g", z->B, z->H, z->T,
                  z->D, z->E, e, out[e], want[e]);
        free(q), free(k), free(v), free(out), free(want);
    }
}

/* T = 1: the query weighs its own key alone, so out = v exactly, in every
 * head, whatever q and k. */
static void test_one_position_is_its_value(void)
{
    enum { B = 2, H = 3, T = 1, D = 4, E = 5 };
    float *q = uniform(B * H * D, 1, 3.0f), *k = uniform(B * H * D, 2, 3.0f), *v = uniform(B * H * E, 3, 1.0f);
    float out[B * H * E];
    run(out, q, k, v, B, H, T, D, E);
    for (int i = 0; i < B * H * E; i++) CHECK(fabsf(out[i] - v[i]) <= 1e-7f, "out[%d] = %.9g, v %.9g", i, out[i], v[i]);
    free(q), free(k), free(v);
}

/* Each (batch, head) is its own sequence: head 1 alone gives what it gives
 * after head 0 (no state carried); and changing position i's key and value
 * changes no output before i (causal). */
static void test_heads_independent_and_causal(void)
{
    enum { T = 9, D = 3, E = 2 };
    float *q = uniform(2 * T * D, 4, 1.5f), *k = uniform(2 * T * D, 5, 1.5f), *v = uniform(2 * T * E, 6, 1.0f);
    float both[2 * T * E], alone[T * E], later[2 * T * E];
    run(both, q, k, v, 1, 2, T, D, E);
    run(alone, q + T * D, k + T * D, v + T * E, 1, 1, T, D, E);
    CHECK(!memcmp(both + T * E, alone, sizeof alone), "head 1 depends on head 0");
    for (int c = 0; c < D; c++) k[6 * D + c] += 1.0f;
    for (int e = 0; e < E; e++) v[6 * E + e] = 0.75f;
    run(later, q, k, v, 1, 2, T, D, E);
    CHECK(!memcmp(both, later, sizeof(float) * 6 * E), "changing position 6 moved an earlier output");
    CHECK(memcmp(both, later, sizeof(float) * T * E), "changing position 6 moved nothing");
    CHECK(run(later, q, k, v, 1, 2, 0, D, E) == ATT_EBADSHAPE, "T = 0 accepted");
    CHECK(run(later, q, k, v, 1, 2, T, D, 0) == ATT_EBADSHAPE, "E = 0 accepted");
    free(q), free(k), free(v);
}

/* The statement's example, by hand: phi(0) = 1, phi(1) = 2, phi(-1) = 1/e.
 * Row 1 weighs keys 0, 1 by 5 and 3: (5 v0 + 3 v1) / 8 = (0.625, 0.375).
 * Row 2: phi(q2) = (1/e, 3), weights (2/e + 3, 1/e + 3, 1/e + 3/e), that
 * is 3 + 2/e, 3 + 1/e, 4/e. */
static void test_worked_example(void)
{
    const float q[6] = { 0, 1, 1, 0, -1, 2 }, k[6] = { 1, 0, 0, 0, 0, -1 }, v[6] = { 1, 0, 0, 1, 2, 2 };
    float out[6];
    run(out, q, k, v, 1, 1, 3, 2, 2);
    double r = exp(-1.0), w0 = 3 + 2 * r, w1 = 3 + r, w2 = 4 * r, sum = w0 + w1 + w2;
    const double want[6] = { 1, 0, 0.625, 0.375, (w0 + 2 * w2) / sum, (w1 + 2 * w2) / sum };
    for (int i = 0; i < 6; i++) CHECK(fabs(out[i] - want[i]) <= 1e-7, "out[%d] = %.9g, want %.9g", i, out[i], want[i]);
    CHECK(fabs(want[4] - 0.7789) < 5e-5 && fabs(want[5] - 0.7360) < 5e-5, "the statement's %.4f, %.4f",
          want[4], want[5]);
}

int main(int argc, char **argv)
{
    static const check_test tests[] = {
        { "recurrent_equals_parallel", test_recurrent_equals_parallel },
        { "one_position_is_its_value", test_one_position_is_its_value },
        { "heads_independent_and_causal", test_heads_independent_and_causal },
        { "worked_example", test_worked_example },
    };
    return check_main(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv, NULL);
}
