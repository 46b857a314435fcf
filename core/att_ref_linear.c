/* att_ref_linear.c: the reference of causal linear attention (exercise 67),
 * in its recurrent form: per (batch, head) a running state S = sum_j
 * phi(k_j) v_j^T and normaliser z = sum_j phi(k_j), both in double, each
 * query read after its own key and value are added. The clean definition,
 * not a fast kernel; the parallel form it must equal is in
 * tests/ref_linear_test.c; semantics in att.h. */
#include <math.h>
#include "att.h"

/* The state (D x E) and the normaliser (D), what the recurrence carries
 * from one position to the next, and phi(q_i) (D), read E + 1 times: the
 * caller's scratch, not an allocation per call. Scratch rather than each
 * query's weights recomputed in O(T^2) without any: the reference is the
 * recurrent form on purpose, so that the parallel form of the tests is an
 * independent check of it, and it stays O(T D E) on long cases. */
size_t att_linear_attn_scratch_doubles(int D, int E)
{
    return (size_t)D * E + 2 * (size_t)D;
}

/* elu(x) + 1: positive everywhere, so every weight and every denominator is. */
static double phi(float x)
{
    return x > 0.0f ? (double)x + 1.0 : exp((double)x);
}

att_status att_linear_attn_ref(float *out, const float *q, const float *k, const float *v,
                               int B, int H, int T, int D, int E, double *scratch)
{
    if (B <= 0 || H <= 0 || T <= 0 || D <= 0 || E <= 0) return ATT_EBADSHAPE;
    double *state = scratch, *z = state + (size_t)D * E, *fq = z + D;
    for (size_t bh = 0; bh < (size_t)B * H; bh++) {
        const float *qb = q + bh * T * D, *kb = k + bh * T * D, *vb = v + bh * T * E;
        float *ob = out + bh * T * E;
        /* Each head starts from nothing: no state crosses heads or batches. */
        for (size_t c = 0; c < (size_t)D * E; c++) state[c] = 0.0;
        for (int c = 0; c < D; c++) z[c] = 0.0;
        for (int i = 0; i < T; i++) {
            for (int c = 0; c < D; c++) {
                double fk = phi(kb[(size_t)i * D + c]);
                z[c] += fk;
                for (int e = 0; e < E; e++) state[(size_t)c * E + e] += fk * vb[(size_t)i * E + e];
            }
            double den = 0.0;
            for (int c = 0; c < D; c++) {
                fq[c] = phi(qb[(size_t)i * D + c]);
                den += fq[c] * z[c];
            }
            for (int e = 0; e < E; e++) {
                double num = 0.0;
                for (int c = 0; c < D; c++) num += fq[c] * state[(size_t)c * E + e];
                ob[(size_t)i * E + e] = (float)(num / den);
            }
        }
    }
    return ATT_OK;
}
