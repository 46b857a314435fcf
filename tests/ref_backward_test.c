/* ref_backward_test.c: tests of the reference of attention's backward pass
 * (core/att_ref_backward.c, exercises 65 and 66): its gradients equal
 * central finite differences of the forward pass, computed here in double
 * apart from the core; the edge rule of a query that sees no key; and a
 * small example worked by hand. Built and run by tests/ref.test.mjs.
 *
 *   ref_backward_test            run every test, print "N passed, N failed"
 *   ref_backward_test --list     the test names, one a line
 *   ref_backward_test NAME       run one test
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
    att_fill_uniform(x, n, 65, stream, scale);
    return x;
}

typedef struct {
    int B, H, T, S, D, causal;
} shape;

/* The loss L = sum(dO o out) of the forward pass, in double from double
 * inputs, written from the statement: out_i = softmax_j(q_i . k_j / sqrt D)
 * v over the keys query i sees (causal: j <= i + S - T); no key: zeros. */
static double loss(const shape *z, const double *q, const double *k, const double *v,
                   const double *dout)
{
    int T = z->T, S = z->S, D = z->D;
    double scale = 1.0 / sqrt((double)D), total = 0.0;
    double *s = xmalloc(sizeof(double) * (size_t)S);
    for (size_t bh = 0; bh < (size_t)z->B * z->H; bh++)
        for (int i = 0; i < T; i++) {
            const double *qi = q + (bh * T + i) * D;
            int last = z->causal ? i + S - T : S - 1;
            double max = -INFINITY, sum = 0.0;
            for (int j = 0; j <= last && j < S; j++) {
                s[j] = 0.0;
                for (int c = 0; c < D; c++) s[j] += qi[c] * k[(bh * S + j) * D + c];
                s[j] *= scale;
                if (s[j] > max) max = s[j];
            }
            for (int j = 0; j <= last && j < S; j++) sum += s[j] = exp(s[j] - max);
            for (int c = 0; c < D; c++) {
                double o = 0.0;
                for (int j = 0; j <= last && j < S; j++) o += s[j] / sum * v[(bh * S + j) * D + c];
                total += dout[(bh * T + i) * D + c] * o;
            }
        }
    free(s);
    return total;
}

static double *widen(const float *x, size_t n)
{
    double *y = xmalloc(n * sizeof *y);
    for (size_t i = 0; i < n; i++) y[i] = x[i];
    return y;
}

/* The reference's gradient of every element of q, k and v equals
 * (L(x + h) - L(x - h)) / 2h, each to 1e-5, on small random shapes: causal
 * and not, S > T (the cache offset), S = T, S < T (queries that see no key),
 * T = 1, one key. */
static void test_gradients_equal_finite_differences(void)
{
    static const shape sz[] = {
        { 1, 1, 1, 1, 1, 0 }, { 1, 1, 3, 3, 2, 1 }, { 1, 2, 3, 5, 4, 1 }, { 2, 1, 4, 7, 3, 0 },
        { 1, 1, 5, 3, 2, 1 }, { 1, 1, 1, 6, 5, 1 }, { 2, 2, 4, 4, 3, 1 }, { 1, 1, 6, 2, 3, 0 },
    };
    for (size_t n = 0; n < sizeof sz / sizeof sz[0]; n++) {
        const shape *z = &sz[n];
        size_t nq = (size_t)z->B * z->H * z->T * z->D, nk = (size_t)z->B * z->H * z->S * z->D;
        float *q = uniform(nq, 10 * n + 1, 2.0f), *k = uniform(nk, 10 * n + 2, 2.0f);
        float *v = uniform(nk, 10 * n + 3, 1.0f), *dout = uniform(nq, 10 * n + 4, 1.0f);
        float *grad[3] = { xmalloc(nq * sizeof(float)), xmalloc(nk * sizeof(float)),
                           xmalloc(nk * sizeof(float)) };
        double *scratch = xmalloc(att_attn_backward_scratch(z->T, z->D) * sizeof(double));
        att_status st = att_attn_backward_ref(grad[0], grad[1], grad[2], q, k, v, dout, z->B, z->H,
                                              z->T, z->S, z->D, z->causal, scratch);
        CHECK(st == ATT_OK, "%s", att_strerror(st));
        double *in[4] = { widen(q, nq), widen(k, nk), widen(v, nk), widen(dout, nq) };
        size_t len[3] = { nq, nk, nk };
        static const char *const names[3] = { "dq", "dk", "dv" };
        const double h = 1e-5;
        for (int t = 0; t < 3; t++)
            for (size_t e = 0; e < len[t]; e++) {
                double x = in[t][e];
                in[t][e] = x + h;
                double up = loss(z, in[0], in[1], in[2], in[3]);
                in[t][e] = x - h;
                double down = loss(z, in[0], in[1], in[2], in[3]);
                in[t][e] = x;
                double fd = (up - down) / (2 * h), g = grad[t][e];
                CHECK(fabs(g - fd) <= 1e-5 + 1e-5 * fabs(fd),
                      "B=%d H=%d T=%d S=%d D=%d causal=%d: %s[%zu] = %.9g, finite differences %.9g",
                      z->B, z->H, z->T, z->S, z->D, z->causal, names[t], e, g, fd);
            }
        for (int t = 0; t < 4; t++) free(in[t]);
        for (int t = 0; t < 3; t++) free(grad[t]);
        free(q), free(k), free(v), free(dout), free(scratch);
    }
}

/* Causal with S < T: the first T - S queries see no key. Their dQ is 0
 * exactly, and changing their dO changes neither dK nor dV. */
static void test_query_without_keys(void)
{
    enum { B = 1, H = 1, T = 6, S = 2, D = 3 };
    float *q = uniform(T * D, 1, 2.0f), *k = uniform(S * D, 2, 2.0f), *v = uniform(S * D, 3, 1.0f);
    float *dout = uniform(T * D, 4, 1.0f);
    float dq[T * D], dk[S * D], dv[S * D], dk2[S * D], dv2[S * D];
    double scratch[2 * T + 2 * D];
    CHECK(att_attn_backward_scratch(T, D) == 2 * T + 2 * D, "scratch %zu", att_attn_backward_scratch(T, D));
    att_attn_backward_ref(dq, dk, dv, q, k, v, dout, B, H, T, S, D, 1, scratch);
    for (int i = 0; i < (T - S) * D; i++) CHECK(dq[i] == 0.0f, "dq[%d] = %g", i, dq[i]);
    for (int i = 0; i < (T - S) * D; i++) dout[i] = 7.0f;
    att_attn_backward_ref(dq, dk2, dv2, q, k, v, dout, B, H, T, S, D, 1, scratch);
    CHECK(!memcmp(dk, dk2, sizeof dk) && !memcmp(dv, dv2, sizeof dv), "an unseen query moved dK or dV");
    CHECK(att_attn_backward_ref(dq, dk, dv, q, k, v, dout, B, H, T, 0, D, 1, scratch) == ATT_EBADSHAPE,
          "S = 0 accepted");
    free(q), free(k), free(v), free(dout);
}

/* One query, two keys, D = 1 (scale 1): q = 1, k = (0, ln 3) give p =
 * (1/4, 3/4); v = (1, 5), dO = 2. Then dV = p dO = (0.5, 1.5), dP = dO v =
 * (2, 10), rowsum(dP o P) = 8, dS = (-1.5, 1.5), dQ = dS . k = 1.5 ln 3,
 * dK = dS q = (-1.5, 1.5). */
static void test_worked_example(void)
{
    const float q[1] = { 1.0f }, k[2] = { 0.0f, (float)log(3.0) }, v[2] = { 1.0f, 5.0f };
    const float dout[1] = { 2.0f };
    float dq[1], dk[2], dv[2];
    double scratch[4];
    att_attn_backward_ref(dq, dk, dv, q, k, v, dout, 1, 1, 1, 2, 1, 0, scratch);
    const float want[5] = { (float)(1.5 * log(3.0)), -1.5f, 1.5f, 0.5f, 1.5f };
    const float got[5] = { dq[0], dk[0], dk[1], dv[0], dv[1] };
    for (int i = 0; i < 5; i++) CHECK(fabsf(got[i] - want[i]) <= 1e-6f, "value %d: %g, want %g", i, got[i], want[i]);
}

/* dS_ij = p_ij dO_i . (v_j - out_i), and out_i is an average of the v_j it
 * sees: adding a constant to every value moves dV's inputs but leaves dQ
 * and dK unchanged. Code that leaves the row-sum term out fails this. */
static void test_shift_of_values_leaves_dq_dk(void)
{
    enum { B = 2, H = 1, T = 5, S = 9, D = 4 };
    float *q = uniform(B * T * D, 5, 2.0f), *k = uniform(B * S * D, 6, 2.0f), *v = uniform(B * S * D, 7, 1.0f);
    float *dout = uniform(B * T * D, 8, 1.0f);
    float dq[B * T * D], dk[B * S * D], dv[B * S * D], dq2[B * T * D], dk2[B * S * D];
    double scratch[2 * T + 2 * D];
    att_attn_backward_ref(dq, dk, dv, q, k, v, dout, B, H, T, S, D, 1, scratch);
    for (int i = 0; i < B * S * D; i++) v[i] += 0.5f;   /* exact: v in [-1, 1) */
    att_attn_backward_ref(dq2, dk2, dv, q, k, v, dout, B, H, T, S, D, 1, scratch);
    for (int i = 0; i < B * T * D; i++) CHECK(fabsf(dq[i] - dq2[i]) <= 1e-6f, "dq[%d]: %g vs %g", i, dq[i], dq2[i]);
    for (int i = 0; i < B * S * D; i++) CHECK(fabsf(dk[i] - dk2[i]) <= 1e-6f, "dk[%d]: %g vs %g", i, dk[i], dk2[i]);
    free(q), free(k), free(v), free(dout);
}

int main(int argc, char **argv)
{
    static const check_test tests[] = {
        { "gradients_equal_finite_differences", test_gradients_equal_finite_differences },
        { "query_without_keys", test_query_without_keys },
        { "worked_example", test_worked_example },
        { "shift_of_values_leaves_dq_dk", test_shift_of_values_leaves_dq_dk },
    };
    return check_main(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv, NULL);
}
