/* problem_backward.c: what the judge knows about exercises 65 (attention's
 * backward pass) and 66 (FlashAttention's backward pass) beyond their data
 * in problems/65-attention-backward and problems/66-flash-attention-backward:
 * how their hidden inputs are made (66 also gets the forward's out and lse),
 * their reference (the core's att_attn_backward_simd, FlashAttention-2's
 * tiled backward pass: both compute the same gradients), the classic
 * mistakes of a backward pass they can name, and the coordinates of a
 * gradient. There is no mask picture: the outputs are
 * gradients; which keys a query sees is held to the statement by the causal
 * cases and the mistakes that change it. The tiling of 66 is enforced by its
 * memory limit, not inspected. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "att.h"
#include "form.h"
#include "judge.h"

/* Exercise 65's params; 66 has the same outputs and q, k, v first, then out
 * and lse, and from d_out on the same again (F_ shifted by two). */
enum { DQ, DK, DV, Q, K, V, DOUT, PB, PH, PT, PS, PD, PCAUSAL, N_PARAMS };
enum { F_OUT = DOUT, F_LSE, F_DOUT, F_SHIFT = F_DOUT - DOUT, F_N_PARAMS = N_PARAMS + F_SHIFT };

static const char *const param_names[N_PARAMS] = {
    "dq", "dk", "dv", "q", "k", "v", "d_out", "B", "H", "T", "S", "D", "causal",
};
static const char *const flash_param_names[F_N_PARAMS] = {
    "dq", "dk", "dv", "q", "k", "v", "out", "lse", "d_out", "B", "H", "T", "S", "D", "causal",
};

/* One call's tensors and sizes, whichever exercise. out, lse: NULL in 65. */
typedef struct {
    const float *q, *k, *v, *out, *lse, *dout;
    int B, H, T, S, D, causal;
} grads_in;

static grads_in view(const judge_args *a, int flash)
{
    int s = flash ? F_SHIFT : 0;
    grads_in g = { a->buf[Q], a->buf[K], a->buf[V], flash ? a->buf[F_OUT] : NULL,
                   flash ? a->buf[F_LSE] : NULL, a->buf[DOUT + s], a->ints[PB + s],
                   a->ints[PH + s], a->ints[PT + s], a->ints[PS + s], a->ints[PD + s],
                   a->ints[PCAUSAL + s] };
    return g;
}

/* q, k ~ U[-2, 2): scores of about unit size; the case's scale multiplies q
 * (rows where one key takes nearly all the probability); v, dO ~ U[-1, 1). */
static void fill(judge_args *a, const judge_case *c, uint64_t seed, int case_index, int dout)
{
    uint64_t stream = (uint64_t)case_index << 8;
    att_fill_uniform(a->buf[Q], a->len[Q], seed, stream + Q, 2.0f * c->scale);
    att_fill_uniform(a->buf[K], a->len[K], seed, stream + K, 2.0f);
    att_fill_uniform(a->buf[V], a->len[V], seed, stream + V, 1.0f);
    att_fill_uniform(a->buf[dout], a->len[dout], seed, stream + DOUT, 1.0f);
}

static void make_inputs(judge_args *a, const judge_case *c, uint64_t seed, int case_index)
{
    fill(a, c, seed, case_index, DOUT);
}

/* 66: out and lse are the forward's (the core's att_attn_lse_ref), as a
 * training step saves them. Its scratch, S floats, is dk's buffer of the
 * call (B*H*S*D floats), which is never sent: outputs go as canary. The
 * example case gives out and lse with its other tensors. */
static void make_flash_inputs(judge_args *a, const judge_case *c, uint64_t seed, int case_index)
{
    fill(a, c, seed, case_index, F_DOUT);
    grads_in g = view(a, 1);
    att_attn_lse_ref(a->buf[F_OUT], a->buf[F_LSE], g.q, g.k, g.v, g.B, g.H, g.T, g.S, g.D,
                     g.causal, a->buf[DK]);
    memset(a->buf[DK], 0, sizeof(float) * a->len[DK]);
}

/* The core's SIMD twin of att_attn_backward_ref (tests/kernels_test.c holds
 * them within 1e-5, far inside both problems' tolerance), from the forward's
 * out and lse. One thread: the learner's code runs on one, and "your time vs
 * the reference" compares like with like. */
static judge_status grads_reference(void *const *outs, const grads_in *g)
{
    size_t n = att_attn_backward_simd_scratch_floats(g->T, g->S, g->D, 1);
    float *scratch = malloc(sizeof(float) * (n ? n : 1));
    if (!scratch) return JUDGE_ENOMEM;
    att_status st = att_attn_backward_simd(outs[DQ], outs[DK], outs[DV], g->q, g->k, g->v, g->out,
                                           g->lse, g->dout, g->B, g->H, g->T, g->S, g->D, g->causal,
                                           1, scratch);
    free(scratch);
    return st == ATT_OK ? JUDGE_OK : JUDGE_EREFERENCE;
}

/* 65's inputs have no out and lse: the forward makes them first. */
static judge_status reference(void *const *outs, const judge_args *a)
{
    grads_in g = view(a, 0);
    size_t nq = (size_t)g.B * g.H * g.T * g.D, nl = (size_t)g.B * g.H * g.T;
    float *fwd = malloc(sizeof(float) * (nq + nl + (size_t)g.S));
    if (!fwd) return JUDGE_ENOMEM;
    judge_status st = JUDGE_EREFERENCE;
    if (att_attn_lse_ref(fwd, fwd + nq, g.q, g.k, g.v, g.B, g.H, g.T, g.S, g.D, g.causal,
                         fwd + nq + nl) == ATT_OK) {
        g.out = fwd, g.lse = fwd + nq;
        st = grads_reference(outs, &g);
    }
    free(fwd);
    return st;
}

static judge_status flash_reference(void *const *outs, const judge_args *a)
{
    grads_in g = view(a, 1);
    return grads_reference(outs, &g);
}

/* ---- what mistaken code returns: one plain float backward pass with the
 * knobs of the problems' mistakes (problem.json), holding P and dS of a head
 * as [T, S] matrices; the judge's model of wrong code (not a reference).
 * 65's code recomputes the softmax itself; 66's reads lse and out. ---- */

static float dot(const float *x, const float *y, int D)
{
    float s = 0.0f;
    for (int c = 0; c < D; c++) s += x[c] * y[c];
    return s;
}

/* Does query i see key j, as code with the changes ch decides: the causal
 * rule, or none (the mask dropped), or only within square tiles of n from
 * position 0 that every query of the tile sees whole (the tiles on the
 * diagonal skipped). */
static int sees(const grads_in *g, const judge_changes *ch, int i, int j)
{
    int off = form_causal_offset(ch, g->S, g->T);
    if (!g->causal || ch->backward_mask == FORM_BACKWARD_MASK_DROPPED) return 1;
    if (ch->backward_tiles) {
        int n = 8 << ch->backward_tiles, i0 = i / n * n, j1 = (j / n + 1) * n;
        return (j1 < g->S ? j1 : g->S) - 1 <= i0 + off;
    }
    return ch->diagonal == FORM_DIAGONAL_EXCLUDED ? j < i + off : j <= i + off;
}

/* Row i's probabilities into p and dP into dp (S each); returns delta_i. */
static float row(const grads_in *g, const judge_changes *ch, const float *q, const float *k,
                 const float *v, const float *o, const float *lse, const float *dout, int i,
                 float *p, float *dp)
{
    int S = g->S, D = g->D;
    float scale = 1.0f / sqrtf((float)D), max = -INFINITY, sum = 0.0f, delta = 0.0f;
    const float *qi = q + (size_t)i * D, *gi = dout + (size_t)i * D;
    for (int j = 0; j < S; j++) {
        float s = dot(qi, k + (size_t)j * D, D);
        p[j] = !sees(g, ch, i, j) ? -INFINITY : ch->backward_p == FORM_BACKWARD_P_UNSCALED ? s : scale * s;
        if (p[j] > max) max = p[j];
        dp[j] = dot(gi, v + (size_t)j * D, D);
    }
    if (lse) {   /* 66: P from the saved log-sum-exp */
        float sub = ch->backward_p == FORM_BACKWARD_P_RAW_EXP ? 0.0f : lse[i];
        for (int j = 0; j < S; j++) p[j] = p[j] == -INFINITY ? 0.0f : expf(p[j] - sub);
    } else {
        for (int j = 0; j < S; j++) {
            /* A query that sees no key: zeros, or exp(-inf - -inf) = NaN
             * where the code does not guard it. */
            p[j] = max == -INFINITY ? (ch->empty == FORM_EMPTY_NAN ? NAN : 0.0f) : expf(p[j] - max);
            sum += p[j];
        }
        for (int j = 0; j < S && sum > 0.0f; j++) p[j] /= sum;
    }
    if (ch->backward_rowsum == FORM_BACKWARD_ROWSUM_NONE) return 0.0f;
    if (!o) {
        for (int j = 0; j < S; j++) delta += p[j] * dp[j];
    } else if (ch->backward_delta == FORM_BACKWARD_DELTA_DO_DO) {
        delta = dot(gi, gi, D);
    } else if (ch->backward_delta == FORM_BACKWARD_DELTA_DP_SUM) {
        for (int j = 0; j < S; j++) delta += sees(g, ch, i, j) ? dp[j] : 0.0f;
    } else if (ch->backward_delta == FORM_BACKWARD_DELTA_DP_SUM_ALL) {
        for (int j = 0; j < S; j++) delta += dp[j];
    } else {
        delta = dot(gi, o + (size_t)i * D, D);
    }
    return delta;
}

static judge_status grads_simulate(void *const *outs, const grads_in *g, const judge_changes *ch)
{
    int T = g->T, S = g->S, D = g->D;
    float scale = 1.0f / sqrtf((float)D);
    float qs = ch->backward_dq_scale ? 1.0f : scale, ks = ch->backward_dk_scale ? 1.0f : scale;
    float *p = malloc(sizeof(float) * 2 * (size_t)T * S), *ds = p + (size_t)T * S;
    if (!p) return JUDGE_ENOMEM;
    for (size_t bh = 0; bh < (size_t)g->B * g->H; bh++) {
        const float *q = g->q + bh * T * D, *k = g->k + bh * S * D, *v = g->v + bh * S * D;
        const float *go = g->dout + bh * T * D;
        float *dq = (float *)outs[DQ] + bh * T * D, *dk = (float *)outs[DK] + bh * S * D;
        float *dv = (float *)outs[DV] + bh * S * D;
        for (int i = 0; i < T; i++) {
            float *pi = p + (size_t)i * S, *dsi = ds + (size_t)i * S;
            float delta = row(g, ch, q, k, v, g->out ? g->out + bh * T * D : NULL,
                              g->lse ? g->lse + bh * T : NULL, go, i, pi, dsi);
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
                    accv += p[ch->backward_dv ? flat : at] * go[(size_t)i * D + c];
                }
                dk[(size_t)j * D + c] = ks * acck;
                dv[(size_t)j * D + c] = accv;
            }
    }
    free(p);
    return JUDGE_OK;
}

static judge_status simulate(void *const *outs, const judge_args *a, const judge_changes *ch,
                             int variant)
{
    (void)variant;
    grads_in g = view(a, 0);
    return grads_simulate(outs, &g, ch);
}

static judge_status flash_simulate(void *const *outs, const judge_args *a, const judge_changes *ch,
                                   int variant)
{
    (void)variant;
    grads_in g = view(a, 1);
    return grads_simulate(outs, &g, ch);
}

/* dq [B, H, T, D]: a query's gradient; dk, dv [B, H, S, D]: a key's. The
 * outputs are the same params in both exercises. */
static void coords(char *buf, size_t n, const judge_args *a, int p, size_t i, judge_lang lang)
{
    grads_in g = view(a, a->meta->n_params == F_N_PARAMS);
    int len = p == DQ ? g.T : g.S;
    size_t r = i / (size_t)g.D;
    buf[0] = 0;
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_B, (int)(r / (size_t)len / (size_t)g.H));
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_H, (int)(r / (size_t)len % (size_t)g.H));
    judge_coord(buf, n, lang, p == DQ ? JUDGE_MSG_AXIS_T : JUDGE_MSG_AXIS_S, (int)(r % (size_t)len));
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_C, (int)(i % (size_t)g.D));
}

const judge_ops judge_backward_ops = {
    "attention-backward", param_names, N_PARAMS, make_inputs, reference, simulate, coords, NULL,
    NULL,
};

const judge_ops judge_flash_backward_ops = {
    "flash-attention-backward", flash_param_names, F_N_PARAMS, make_flash_inputs,
    flash_reference, flash_simulate, coords, NULL, NULL,
};
