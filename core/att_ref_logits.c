/* att_ref_logits.c: reference kernels of attention whose logits are more
 * than q.k / sqrt(D): gpt-oss's learned sinks (a per-head logit that joins
 * every softmax with no value) and ALiBi's biases with Gemma-2's soft cap.
 * Plain loops, double accumulation, maxima from the data; semantics in
 * att.h. The mask is att_sees', the one rule of the core. */
#include <math.h>
#include "att.h"

/* out_i = sum_j exp(s_j - m) v_j / sum, over the scores scratch[0 .. n)
 * (-inf: hidden) and one extra logit `extra` with no value (-inf: none),
 * m the max of both. A row with nothing in it gives zeros. */
static void softmax_row(float *out, const float *scratch, int n, double extra, const float *v,
                        size_t ldv, int D)
{
    double m = extra;
    for (int j = 0; j < n; j++)
        if (scratch[j] > m) m = scratch[j];
    if (m == -INFINITY) {
        for (int c = 0; c < D; c++) out[c] = 0.0f;
        return;
    }
    double sum = exp(extra - m);
    for (int j = 0; j < n; j++) sum += exp((double)scratch[j] - m);
    for (int c = 0; c < D; c++) {
        double acc = 0.0;
        for (int j = 0; j < n; j++)
            if (scratch[j] > -INFINITY) acc += exp((double)scratch[j] - m) * v[(size_t)j * ldv + c];
        out[c] = (float)(acc / sum);
    }
}

att_status att_learned_sink_ref(float *out, const float *q, const float *k,
                                const float *v, const float *sinks, int B, int H,
                                int T, int D, int W, float *scratch)
{
    if (B <= 0 || H <= 0 || T <= 0 || D <= 0 || W < 0) return ATT_EBADSHAPE;
    for (int h = 0; h < H; h++)   /* checked first: an error touches nothing */
        if (isnan(sinks[h]) || sinks[h] == INFINITY) return ATT_EBADSHAPE;
    double scale = 1.0 / sqrt((double)D);
    size_t td = (size_t)T * D;
    att_attn_desc a = { .T = T, .S = T, .causal = 1, .window = W };
    for (size_t bh = 0; bh < (size_t)B * H; bh++) {
        const float *qb = q + bh * td, *kb = k + bh * td, *vb = v + bh * td;
        for (int i = 0; i < T; i++) {
            for (int j = 0; j < T; j++) {
                int seen = att_sees(&a, NULL, i, j);
                double dot = 0.0;
                for (int c = 0; seen && c < D; c++)
                    dot += (double)qb[(size_t)i * D + c] * kb[(size_t)j * D + c];
                scratch[j] = seen ? (float)(scale * dot) : -INFINITY;
            }
            /* The sink joins as it is: gpt-oss scales the scores, not it. */
            softmax_row(out + bh * td + (size_t)i * D, scratch, T, sinks[bh % H], vb, D, D);
        }
    }
    return ATT_OK;
}

double att_alibi_slope(int h, int H)
{
    return exp2(-8.0 * (h + 1) / H);
}

att_status att_alibi_softcap_ref(float *out, const float *q, const float *k,
                                 const float *v, int B, int H, int T, int S, int D,
                                 float cap, int alibi, float *scratch)
{
    if (B <= 0 || H <= 0 || T <= 0 || D <= 0 || S < T || !(cap >= 0.0f) || isinf(cap))
        return ATT_EBADSHAPE;
    double scale = 1.0 / sqrt((double)D);
    att_attn_desc a = { .T = T, .S = S, .causal = 1 };
    for (size_t bh = 0; bh < (size_t)B * H; bh++) {
        const float *qb = q + bh * T * D, *kb = k + bh * S * D, *vb = v + bh * S * D;
        double slope = alibi ? att_alibi_slope((int)(bh % H), H) : 0.0;
        for (int i = 0; i < T; i++) {
            int pos = i + S - T;
            for (int j = 0; j < S; j++) {
                if (!att_sees(&a, NULL, i, j)) {   /* masked after the cap: -inf stays -inf */
                    scratch[j] = -INFINITY;
                    continue;
                }
                double s = 0.0;
                for (int c = 0; c < D; c++) s += (double)qb[(size_t)i * D + c] * kb[(size_t)j * D + c];
                s *= scale;
                if (cap > 0.0f) s = cap * tanh(s / cap);
                scratch[j] = (float)(s + slope * (j - pos));
            }
            softmax_row(out + (bh * T + i) * D, scratch, S, -INFINITY, vb, D, D);
        }
    }
    return ATT_OK;
}
