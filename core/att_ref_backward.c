/* att_ref_backward.c: the reference of attention's backward pass (exercises
 * 65 and 66), the plain way: each probability recomputed from its score and
 * its row's log-sum-exp whenever it is needed, every sum in double. It is
 * the clean definition the tiled kernels are held to, not a fast kernel;
 * semantics in att.h. */
#include <math.h>
#include "att.h"

size_t att_attn_backward_scratch(int T, int D)
{
    return 2 * (size_t)T + 2 * (size_t)D;
}

/* p_ij of one head from the score and the row's log-sum-exp; 0 for a key
 * the query does not see (and for a query that sees none: lse = -inf). */
static double prob(const att_attn_desc *a, const float *q, const float *k, int D, double scale,
                   double lse, int i, int j)
{
    if (!att_sees(a, NULL, i, j) || lse == -INFINITY) return 0.0;
    double dot = 0.0;
    for (int c = 0; c < D; c++) dot += (double)q[(size_t)i * D + c] * k[(size_t)j * D + c];
    return exp(dot * scale - lse);
}

static double dot_rows(const float *x, const float *y, int D)
{
    double s = 0.0;
    for (int c = 0; c < D; c++) s += (double)x[c] * y[c];
    return s;
}

att_status att_attn_backward_ref(float *dq, float *dk, float *dv, const float *q,
                                 const float *k, const float *v, const float *dout, int B,
                                 int H, int T, int S, int D, int causal, double *scratch)
{
    if (B <= 0 || H <= 0 || T <= 0 || S <= 0 || D <= 0) return ATT_EBADSHAPE;
    double scale = 1.0 / sqrt((double)D);
    double *lse = scratch, *delta = lse + T, *acc = delta + T, *acc2 = acc + D;
    att_attn_desc a = { .T = T, .S = S, .causal = causal };
    for (size_t bh = 0; bh < (size_t)B * H; bh++) {
        const float *qb = q + bh * T * D, *kb = k + bh * S * D, *vb = v + bh * S * D;
        const float *gb = dout + bh * T * D;
        /* Per query: its log-sum-exp, then delta_i = sum_j p_ij dP_ij, the
         * softmax Jacobian's row-sum term. */
        for (int i = 0; i < T; i++) {
            double max = -INFINITY, sum = 0.0;
            for (int j = 0; j < S; j++)
                if (att_sees(&a, NULL, i, j)) {
                    double s = dot_rows(qb + (size_t)i * D, kb + (size_t)j * D, D) * scale;
                    if (s > max) max = s;
                }
            for (int j = 0; j < S; j++)
                if (att_sees(&a, NULL, i, j))
                    sum += exp(dot_rows(qb + (size_t)i * D, kb + (size_t)j * D, D) * scale - max);
            lse[i] = max == -INFINITY ? -INFINITY : max + log(sum);
            delta[i] = 0.0;
            for (int j = 0; j < S; j++)
                delta[i] += prob(&a, qb, kb, D, scale, lse[i], i, j) *
                            dot_rows(gb + (size_t)i * D, vb + (size_t)j * D, D);
        }
        /* dQ_i = scale sum_j dS_ij k_j, dS_ij = p_ij (dP_ij - delta_i). */
        for (int i = 0; i < T; i++) {
            for (int c = 0; c < D; c++) acc[c] = 0.0;
            for (int j = 0; j < S; j++) {
                double p = prob(&a, qb, kb, D, scale, lse[i], i, j);
                double ds = p * (dot_rows(gb + (size_t)i * D, vb + (size_t)j * D, D) - delta[i]);
                for (int c = 0; c < D; c++) acc[c] += ds * kb[(size_t)j * D + c];
            }
            for (int c = 0; c < D; c++) dq[bh * T * D + (size_t)i * D + c] = (float)(scale * acc[c]);
        }
        /* dK_j = scale sum_i dS_ij q_i (dS transposed), dV_j = sum_i p_ij dO_i. */
        for (int j = 0; j < S; j++) {
            for (int c = 0; c < D; c++) acc[c] = acc2[c] = 0.0;
            for (int i = 0; i < T; i++) {
                double p = prob(&a, qb, kb, D, scale, lse[i], i, j);
                double ds = p * (dot_rows(gb + (size_t)i * D, vb + (size_t)j * D, D) - delta[i]);
                for (int c = 0; c < D; c++) {
                    acc[c] += ds * qb[(size_t)i * D + c];
                    acc2[c] += p * gb[(size_t)i * D + c];
                }
            }
            for (int c = 0; c < D; c++) {
                dk[bh * S * D + (size_t)j * D + c] = (float)(scale * acc[c]);
                dv[bh * S * D + (size_t)j * D + c] = (float)acc2[c];
            }
        }
    }
    return ATT_OK;
}
