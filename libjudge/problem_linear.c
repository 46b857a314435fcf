/* problem_linear.c: what the judge knows about exercise 67 (causal linear
 * attention) beyond its data in problems/67-linear-attention: how its
 * hidden inputs are made, its reference (the core's att_linear_attn_ref, the
 * recurrent form in double), the classic mistakes of linear attention it can
 * name, and the coordinates of an output. It is not softmax attention, so
 * there is no attention form and no mask picture: which keys a query weighs
 * is held to the statement by the mistakes that change it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "att.h"
#include "judge.h"

enum { OUT, Q, K, V, PB, PH, PT, PD, PE, N_PARAMS };

static const char *const param_names[N_PARAMS] = {
    "out", "q", "k", "v", "B", "H", "T", "D", "E",
};

/* q, k ~ U[-1.5, 1.5) times the case's scale: both branches of elu(x) + 1
 * (and of relu) are hit in every row, and phi stays above exp(-1.5 scale),
 * so the denominators stay far from 0 and an eps of 1e-6 in them is far
 * inside the tolerance; v ~ U[-1, 1). */
static void make_inputs(judge_args *a, const judge_case *c, uint64_t seed, int case_index)
{
    uint64_t stream = (uint64_t)case_index << 8;
    att_fill_uniform(a->buf[Q], a->len[Q], seed, stream + Q, 1.5f * c->scale);
    att_fill_uniform(a->buf[K], a->len[K], seed, stream + K, 1.5f * c->scale);
    att_fill_uniform(a->buf[V], a->len[V], seed, stream + V, 1.0f);
}

static judge_status reference(void *const *outs, const judge_args *a)
{
    int D = a->ints[PD], E = a->ints[PE];
    double *scratch = malloc(sizeof(double) * att_linear_attn_scratch_doubles(D, E));
    if (!scratch) return JUDGE_ENOMEM;
    att_status st = att_linear_attn_ref(outs[OUT], a->buf[Q], a->buf[K], a->buf[V], a->ints[PB],
                                        a->ints[PH], a->ints[PT], D, E, scratch);
    free(scratch);
    return st == ATT_OK ? JUDGE_OK : JUDGE_EREFERENCE;
}

/* ---- what mistaken code returns: the recurrent form in float with the
 * knobs of the problem's mistakes (problem.json); the judge's model of
 * wrong code, not a reference. ---- */

static float feature(float x, const judge_changes *ch)
{
    switch (ch->linear_phi) {
    case FORM_LINEAR_PHI_ELU: return x > 0.0f ? x : expf(x) - 1.0f;
    case FORM_LINEAR_PHI_RELU: return x > 0.0f ? x : 0.0f;
    case FORM_LINEAR_PHI_IDENTITY: return x;
    case FORM_LINEAR_PHI_EXP_PLUS_ONE: return x > 0.0f ? x + 1.0f : expf(x) + 1.0f;
    case FORM_LINEAR_PHI_NO_PLUS_ONE_ABOVE: return x > 0.0f ? x : expf(x);
    case FORM_LINEAR_PHI_RELU_PLUS_ONE: return x > 0.0f ? x + 1.0f : 1.0f;
    case FORM_LINEAR_PHI_MINUS_ONE_BELOW: return x > 0.0f ? x + 1.0f : expf(x) - 1.0f;
    case FORM_LINEAR_PHI_EXP: return expf(x);
    default: return x > 0.0f ? x + 1.0f : expf(x);
    }
}

/* Where code puts the state's element (c, e) when it writes it (write 1)
 * or reads it: at c*E + e ([D, E]); at c*D + e on both sides (row_stride_d);
 * at e*D + c ([E, D]) on one side, the read (transposed) or the write
 * (transposed_write). */
static size_t at(int c, int e, int D, int E, const judge_changes *ch, int write)
{
    if (ch->linear_read == (write ? FORM_LINEAR_READ_TRANSPOSED_WRITE : FORM_LINEAR_READ_TRANSPOSED))
        return (size_t)e * D + c;
    return (size_t)c * (ch->linear_read == FORM_LINEAR_READ_ROW_STRIDE_D ? D : E) + e;
}

/* Add position i's phi(k_i) v_i^T to state (unless it is NULL) and phi(k_i)
 * to z (unless it is NULL). */
static void add(float *state, float *z, const float *k, const float *v, int D, int E,
                const judge_changes *ch)
{
    for (int c = 0; c < D; c++) {
        float fk = ch->linear_phi_on == FORM_LINEAR_PHI_ON_Q_ONLY ? k[c] : feature(k[c], ch);
        if (z) z[c] += ch->linear_phi_on == FORM_LINEAR_PHI_ON_Z_RAW ? k[c] : fk;
        for (int e = 0; e < E && state; e++) state[at(c, e, D, E, ch, 1)] += fk * v[e];
    }
}

/* out[0 .. E-1] for query q (k: its position's key), the seen-th of its
 * sequence (from 1), with fq (D floats) to hold its phi(q); *den: the
 * denominator, from 0 for each query unless code carries it on (linear_den
 * carried). */
static void query(float *out, const float *state, const float *z, const float *q, const float *k, float *fq,
                  int D, int E, int seen, float *den, const judge_changes *ch)
{
    float qs = ch->linear_q == FORM_LINEAR_Q_SCALED ? 1.0f / sqrtf((float)D) : 1.0f;
    if (ch->linear_den != FORM_LINEAR_DEN_CARRIED) *den = 0.0f;
    for (int c = 0; c < D; c++) {
        fq[c] = ch->linear_phi_on == FORM_LINEAR_PHI_ON_K_ONLY ? q[c] * qs : feature(q[c] * qs, ch);
        *den += ch->linear_den == FORM_LINEAR_DEN_KEY ? feature(k[c], ch) * z[c]
              : ch->linear_den == FORM_LINEAR_DEN_SUM_Z ? z[c] : fq[c] * z[c];
    }
    for (int e = 0; e < E; e++) {
        float num = 0.0f;
        for (int c = 0; c < D; c++) num += fq[c] * state[at(c, e, D, E, ch, 0)];
        out[e] = ch->linear_norm == FORM_LINEAR_NORM_NONE ? num
               : ch->linear_norm == FORM_LINEAR_NORM_COUNT ? num / (float)seen : num / *den;
    }
}

static judge_status simulate(void *const *outs, const judge_args *a, const judge_changes *ch,
                             int variant)
{
    (void)variant;
    int B = a->ints[PB], H = a->ints[PH], T = a->ints[PT], D = a->ints[PD], E = a->ints[PE];
    /* the state with rows D apart too (linear_read row_stride_d) */
    size_t n_state = (size_t)D * (D > E ? D : E);
    float *state = calloc(n_state + 2 * (size_t)D, sizeof(float)), *z = state + n_state, *fq = z + D;
    if (!state) return JUDGE_ENOMEM;
    for (size_t bh = 0; bh < (size_t)B * H; bh++) {
        const float *q = (const float *)a->buf[Q] + bh * T * D, *k = (const float *)a->buf[K] + bh * T * D;
        const float *v = (const float *)a->buf[V] + bh * T * E;
        /* [B, H, T, E], or [B, T, H, E] where code writes heads back in place */
        int bthe = ch->linear_out == FORM_LINEAR_OUT_BTHE;
        size_t b = bh / (size_t)H, h = bh % (size_t)H, row = bthe ? (size_t)H * E : (size_t)E;
        float *out = (float *)outs[OUT] + (bthe ? b * T * H * E + h * E : bh * T * E);
        float den = 0.0f;
        int reset = ch->linear_state == FORM_LINEAR_STATE_RIGHT
                 || (ch->linear_state == FORM_LINEAR_STATE_PER_BATCH && bh % (size_t)H == 0)
                 || (ch->linear_state == FORM_LINEAR_STATE_FIRST_BATCH && bh < (size_t)H);
        if (reset) memset(state, 0, sizeof(float) * (n_state + D));
        /* The totals first (z_all: z's alone), then every query. */
        int z_all = ch->linear_sums == FORM_LINEAR_SUMS_Z_ALL, all = ch->linear_sums == FORM_LINEAR_SUMS_ALL;
        for (int i = 0; i < T && (all || z_all); i++)
            add(all ? state : NULL, z, k + (size_t)i * D, v + (size_t)i * E, D, E, ch);
        for (int i = 0; i < T; i++) {
            if (ch->linear_sums == FORM_LINEAR_SUMS_RIGHT || z_all)
                add(state, z_all ? NULL : z, k + (size_t)i * D, v + (size_t)i * E, D, E, ch);
            query(out + (size_t)i * row, state, z, q + (size_t)i * D, k + (size_t)i * D, fq, D, E, i + 1, &den, ch);
            if (ch->linear_sums == FORM_LINEAR_SUMS_EXCLUSIVE)
                add(state, z, k + (size_t)i * D, v + (size_t)i * E, D, E, ch);
        }
    }
    free(state);
    return JUDGE_OK;
}

/* out [B, H, T, E]: position t's value dim e. */
static void coords(char *buf, size_t n, const judge_args *a, int p, size_t i, judge_lang lang)
{
    (void)p;
    int H = a->ints[PH], T = a->ints[PT], E = a->ints[PE];
    size_t r = i / (size_t)E;
    buf[0] = 0;
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_B, (int)(r / (size_t)T / (size_t)H));
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_H, (int)(r / (size_t)T % (size_t)H));
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_T, (int)(r % (size_t)T));
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_C, (int)(i % (size_t)E));
}

const judge_ops judge_linear_ops = {
    "linear-attention", param_names, N_PARAMS, make_inputs, reference, simulate, coords, NULL, NULL,
};
