/* att_ref_sparse.c: the references of sparse attention (exercise 69, top-k
 * per query; exercise 70, a sliding window plus global tokens). Plain loops,
 * double accumulation, the max from -INFINITY; semantics in att.h. Which keys
 * a query keeps is decided here from its definition, by counting, not by the
 * sort or heap a fast kernel would use. */
#include <math.h>
#include "att.h"

static double dot_rows(const float *x, const float *y, int D)
{
    double s = 0.0;
    for (int c = 0; c < D; c++) s += (double)x[c] * y[c];
    return s;
}

/* out_i of one query from the scores s[j] of the keys it keeps (keep[j]):
 * a softmax over those only, every sum in double. */
static void attend_row(float *out, const double *s, const unsigned char *keep, int n,
                       const float *v, int D)
{
    double max = -INFINITY, sum = 0.0;
    for (int j = 0; j < n; j++)
        if (keep[j] && s[j] > max) max = s[j];
    for (int j = 0; j < n; j++)
        if (keep[j]) sum += exp(s[j] - max);
    for (int c = 0; c < D; c++) {
        double acc = 0.0;
        for (int j = 0; j < n; j++)
            if (keep[j]) acc += exp(s[j] - max) * v[(size_t)j * D + c];
        out[c] = (float)(acc / sum);
    }
}

att_status att_topk_ref(float *out, const float *q, const float *k, const float *v, int B,
                        int H, int T, int D, int topk, double *scratch, unsigned char *keep)
{
    if (B <= 0 || H <= 0 || T <= 0 || D <= 0 || topk <= 0) return ATT_EBADSHAPE;
    double scale = 1.0 / sqrt((double)D);
    for (size_t bh = 0; bh < (size_t)B * H; bh++) {
        const float *qb = q + bh * T * D, *kb = k + bh * T * D, *vb = v + bh * T * D;
        for (int i = 0; i < T; i++) {
            for (int j = 0; j <= i; j++) scratch[j] = dot_rows(qb + (size_t)i * D, kb + (size_t)j * D, D) * scale;
            /* Key j's rank among the visible keys: how many outrank it, a
             * higher score or an equal one at a lower index. */
            for (int j = 0; j <= i; j++) {
                int rank = 0;
                for (int m = 0; m <= i; m++)
                    rank += scratch[m] > scratch[j] || (scratch[m] == scratch[j] && m < j);
                keep[j] = rank < topk;
            }
            attend_row(out + (bh * T + i) * D, scratch, keep, i + 1, vb, D);
        }
    }
    return ATT_OK;
}

/* Is position x among the G sorted positions of global_idx? */
static int is_global(const int *global_idx, int G, int x)
{
    for (int g = 0; g < G && global_idx[g] <= x; g++)
        if (global_idx[g] == x) return 1;
    return 0;
}

att_status att_hybrid_ref(float *out, const float *q, const float *k, const float *v,
                          const int *global_idx, int B, int H, int T, int D, int W, int G,
                          double *scratch, unsigned char *seen)
{
    if (B <= 0 || H <= 0 || T <= 0 || D <= 0 || W <= 0 || G < 0 || G > T) return ATT_EBADSHAPE;
    for (int g = 0; g < G; g++)
        if (global_idx[g] < 0 || global_idx[g] >= T || (g > 0 && global_idx[g] <= global_idx[g - 1]))
            return ATT_EBADSHAPE;
    double scale = 1.0 / sqrt((double)D);
    for (size_t bh = 0; bh < (size_t)B * H; bh++) {
        const float *qb = q + bh * T * D, *kb = k + bh * T * D, *vb = v + bh * T * D;
        for (int i = 0; i < T; i++) {
            int wide = is_global(global_idx, G, i);
            for (int j = 0; j <= i; j++) {
                seen[j] = wide || j > i - W || is_global(global_idx, G, j);
                scratch[j] = seen[j] ? dot_rows(qb + (size_t)i * D, kb + (size_t)j * D, D) * scale : 0.0;
            }
            attend_row(out + (bh * T + i) * D, scratch, seen, i + 1, vb, D);
        }
    }
    return ATT_OK;
}
