/* problem_backward.c: what the judge knows about exercise 65, attention's
 * backward pass, beyond its data in problems/65-attention-backward: how its
 * hidden inputs are made, its reference (the core's att_attn_backward_ref),
 * the classic mistakes of a backward pass it can name, and the coordinates
 * of a gradient. There is no mask picture: the outputs are gradients, and
 * which keys a query sees is held to the statement by the dropped-mask
 * mistake and the causal cases instead. */
#include <math.h>
#include <stdlib.h>
#include "att.h"
#include "judge.h"

enum { DQ, DK, DV, Q, K, V, DOUT, PB, PH, PT, PS, PD, PCAUSAL, N_PARAMS };

static const char *const param_names[N_PARAMS] = {
    "dq", "dk", "dv", "q", "k", "v", "d_out", "B", "H", "T", "S", "D", "causal",
};

/* q, k ~ U[-2, 2): scores of about unit size; the case's scale multiplies q
 * (a softmax that overflows without its max); v, dO ~ U[-1, 1). */
static void make_inputs(judge_args *a, const judge_case *c, uint64_t seed, int case_index)
{
    uint64_t stream = (uint64_t)case_index << 8;
    att_fill_uniform(a->buf[Q], a->len[Q], seed, stream + Q, 2.0f * c->scale);
    att_fill_uniform(a->buf[K], a->len[K], seed, stream + K, 2.0f);
    att_fill_uniform(a->buf[V], a->len[V], seed, stream + V, 1.0f);
    att_fill_uniform(a->buf[DOUT], a->len[DOUT], seed, stream + DOUT, 1.0f);
}

static judge_status reference(void *const *outs, const judge_args *a)
{
    double *scratch = malloc(sizeof(double) * att_attn_backward_scratch(a->ints[PT], a->ints[PD]));
    if (!scratch) return JUDGE_ENOMEM;
    att_status st = att_attn_backward_ref(outs[DQ], outs[DK], outs[DV], a->buf[Q], a->buf[K],
                                          a->buf[V], a->buf[DOUT], a->ints[PB], a->ints[PH],
                                          a->ints[PT], a->ints[PS], a->ints[PD], a->ints[PCAUSAL],
                                          scratch);
    free(scratch);
    return st == ATT_OK ? JUDGE_OK : JUDGE_EREFERENCE;
}

/* ---- what mistaken code returns: one plain float backward pass with the
 * knobs of the problem's mistakes (problem.json), holding P and dS of a head
 * as [T, S] matrices the way a first version does; the judge's model of
 * wrong code (not a reference) ---- */

static float dot(const float *x, const float *y, int D)
{
    float s = 0.0f;
    for (int c = 0; c < D; c++) s += x[c] * y[c];
    return s;
}

static judge_status simulate(void *const *outs, const judge_args *a, const judge_changes *ch,
                             int variant)
{
    (void)variant;
    int B = a->ints[PB], H = a->ints[PH], T = a->ints[PT], S = a->ints[PS], D = a->ints[PD];
    int causal = a->ints[PCAUSAL] && ch->backward_mask != FORM_BACKWARD_MASK_DROPPED;
    float scale = 1.0f / sqrtf((float)D);
    float qs = ch->backward_dq_scale ? 1.0f : scale, ks = ch->backward_dk_scale ? 1.0f : scale;
    float *p = malloc(sizeof(float) * 2 * (size_t)T * S), *ds = p + (size_t)T * S;
    if (!p) return JUDGE_ENOMEM;
    for (size_t bh = 0; bh < (size_t)B * H; bh++) {
        const float *q = (const float *)a->buf[Q] + bh * T * D, *k = (const float *)a->buf[K] + bh * S * D;
        const float *v = (const float *)a->buf[V] + bh * S * D;
        const float *g = (const float *)a->buf[DOUT] + bh * T * D;
        float *dq = (float *)outs[DQ] + bh * T * D, *dk = (float *)outs[DK] + bh * S * D;
        float *dv = (float *)outs[DV] + bh * S * D;
        for (int i = 0; i < T; i++) {
            float *pi = p + (size_t)i * S, *dsi = ds + (size_t)i * S, max = -INFINITY, sum = 0.0f;
            int last = causal ? i + S - T : S - 1;
            for (int j = 0; j < S; j++) {
                pi[j] = j <= last ? scale * dot(q + (size_t)i * D, k + (size_t)j * D, D) : -INFINITY;
                if (pi[j] > max) max = pi[j];
            }
            for (int j = 0; j < S; j++) {
                pi[j] = max == -INFINITY ? 0.0f : expf(pi[j] - max);
                sum += pi[j];
            }
            float delta = 0.0f;
            for (int j = 0; j < S; j++) {
                if (sum > 0.0f) pi[j] /= sum;
                dsi[j] = dot(g + (size_t)i * D, v + (size_t)j * D, D);
                delta += pi[j] * dsi[j];
            }
            if (ch->backward_rowsum == FORM_BACKWARD_ROWSUM_NONE) delta = 0.0f;
            for (int j = 0; j < S; j++) dsi[j] = pi[j] * (dsi[j] - delta);
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j < S; j++) acc += dsi[j] * k[(size_t)j * D + c];
                dq[(size_t)i * D + c] = qs * acc;
            }
        }
        /* Element (i, j) of dS and P, or element j*T + i of the flat [T, S]
         * buffer where the code reads it as [S, T]. */
        for (int j = 0; j < S; j++)
            for (int c = 0; c < D; c++) {
                float acck = 0.0f, accv = 0.0f;
                for (int i = 0; i < T; i++) {
                    size_t at = (size_t)i * S + j, flat = (size_t)j * T + i;
                    acck += ds[ch->backward_dk ? flat : at] * q[(size_t)i * D + c];
                    accv += p[ch->backward_dv ? flat : at] * g[(size_t)i * D + c];
                }
                dk[(size_t)j * D + c] = ks * acck;
                dv[(size_t)j * D + c] = accv;
            }
    }
    free(p);
    return JUDGE_OK;
}

/* dq [B, H, T, D]: a query's gradient; dk, dv [B, H, S, D]: a key's. */
static void coords(char *buf, size_t n, const judge_args *a, int p, size_t i, judge_lang lang)
{
    int H = a->ints[PH], D = a->ints[PD], len = p == DQ ? a->ints[PT] : a->ints[PS];
    size_t row = i / (size_t)D;
    buf[0] = 0;
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_B, (int)(row / (size_t)len / (size_t)H));
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_H, (int)(row / (size_t)len % (size_t)H));
    judge_coord(buf, n, lang, p == DQ ? JUDGE_MSG_AXIS_T : JUDGE_MSG_AXIS_S, (int)(row % (size_t)len));
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_C, (int)(i % (size_t)D));
}

const judge_ops judge_backward_ops = {
    "attention-backward", param_names, N_PARAMS, make_inputs, reference, simulate, coords,
};
