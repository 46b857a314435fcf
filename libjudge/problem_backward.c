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

/* The tile of ch->backward_tiles, in keys (and queries). */
static int tile_of(const judge_changes *ch)
{
    static const int n[] = { 1, 16, 32, 64, 1 };
    return n[ch->backward_tile];
}

/* Does query i see key j, as code with the changes ch decides, in the pass
 * that makes dQ (kv_pass 0) or dK and dV (1): the causal rule, or none (the
 * mask dropped), or tiles of n from position 0 (backward_tiles), whole or
 * dropped. */
static int sees(const grads_in *g, const judge_changes *ch, int i, int j, int kv_pass)
{
    int off = form_causal_offset(ch, g->S, g->T), n = tile_of(ch);
    int first = j / n * n, last = (first + n < g->S ? first + n : g->S) - 1, i0 = i / n * n;
    if (ch->backward_tiles == FORM_BACKWARD_TILES_PARTIAL_KEYS_DROPPED && j >= g->S / n * n) return 0;
    if (!g->causal || ch->backward_mask == FORM_BACKWARD_MASK_DROPPED) return 1;
    switch (ch->backward_tiles) {
    case FORM_BACKWARD_TILES_SKIP_DIAGONAL: return last <= i0 + off;
    case FORM_BACKWARD_TILES_UNMASKED: return first <= (i0 + n < g->T ? i0 + n : g->T) - 1 + off;
    case FORM_BACKWARD_TILES_KEY_PASS_UNMASKED:
        if (kv_pass) return first <= i + off;
        break;
    case FORM_BACKWARD_TILES_KEY_PASS_SKIP_DIAGONAL:
        if (kv_pass) return last <= i + off;
        break;
    default: break;
    }
    return ch->diagonal == FORM_DIAGONAL_EXCLUDED ? j < i + off : j <= i + off;
}

/* One head's tensors as the code reads them: rows of rs floats apart. */
typedef struct {
    const float *q, *k, *v, *o, *lse, *dout;
    float *dq, *dk, *dv;
    size_t rs;
} head_view;

/* Row i's probabilities into p and dP into dp (S each), and into *rowsum
 * the sum they were divided by (1 where P comes from the saved lse);
 * returns delta_i. */
static float row(const grads_in *g, const judge_changes *ch, const head_view *x, int i, int kv_pass,
                 float *p, float *dp, float *rowsum)
{
    int S = g->S, D = g->D;
    int after = ch->backward_mask == FORM_BACKWARD_MASK_AFTER_SOFTMAX;
    float scale = form_score_scale(ch, 1, D, S), max = -INFINITY, sum = 0.0f, delta = 0.0f, raw = 0.0f;
    const float *qi = x->q + (size_t)i * x->rs, *gi = x->dout + (size_t)i * x->rs;
    int fours = form_dot_dims(ch, D), all = ch->score_dims == FORM_SCORE_DIMS_WHOLE_FOURS_ALL ? fours : D;
    for (int j = 0; j < S; j++) {
        float s = dot(qi, x->k + (size_t)j * x->rs, fours);
        p[j] = !after && !sees(g, ch, i, j, kv_pass) ? -INFINITY
             : ch->backward_p == FORM_BACKWARD_P_UNSCALED ? s : scale * s;
        if (p[j] > max) max = p[j];
        dp[j] = dot(gi, x->v + (size_t)j * x->rs, all);
    }
    *rowsum = 1.0f;
    if (x->lse) {   /* 66: P from the saved log-sum-exp */
        float sub = ch->backward_p == FORM_BACKWARD_P_RAW_EXP ? 0.0f : x->lse[i];
        for (int j = 0; j < S; j++)
            p[j] = p[j] == -INFINITY ? 0.0f
                 : ch->backward_p == FORM_BACKWARD_P_DIVIDED ? expf(p[j]) / expf(sub) : expf(p[j] - sub);
    } else {
        float sub = ch->softmax == FORM_SOFTMAX_NO_MAX ? 0.0f : max;   /* no_max: exp overflows past 88 */
        for (int j = 0; j < S; j++) {
            /* A query that sees no key: zeros, or exp(-inf - -inf) = NaN
             * where the code does not guard it. */
            p[j] = max == -INFINITY ? (ch->empty == FORM_EMPTY_NAN ? NAN : 0.0f) : expf(p[j] - sub);
            sum += p[j];
            raw += p[j] * dp[j];   /* before the division, as code that sums delta there does */
        }
        for (int j = 0; j < S && sum > 0.0f; j++) p[j] /= sum;
        if (sum > 0.0f) *rowsum = sum;
        for (int j = 0; j < S && after; j++) p[j] = sees(g, ch, i, j, kv_pass) ? p[j] : 0.0f;
    }
    if (ch->backward_rowsum == FORM_BACKWARD_ROWSUM_NONE) return 0.0f;
    if (ch->backward_delta == FORM_BACKWARD_DELTA_UNNORMALISED) {
        delta = raw;
    } else if (ch->backward_delta == FORM_BACKWARD_DELTA_DO_DO) {
        delta = dot(gi, gi, D);
    } else if (ch->backward_delta == FORM_BACKWARD_DELTA_DP_SUM) {
        for (int j = 0; j < S; j++) delta += sees(g, ch, i, j, kv_pass) ? dp[j] : 0.0f;
    } else if (ch->backward_delta == FORM_BACKWARD_DELTA_DP_SUM_ALL) {
        for (int j = 0; j < S; j++) delta += dp[j];
    } else if (!x->o) {
        for (int j = 0; j < S; j++) delta += p[j] * dp[j];
    } else {
        delta = dot(gi, x->o + (size_t)i * x->rs, all);
    }
    return delta;
}

/* P and dS of a head as one pass sees them, [T, S] each; delta: T + S
 * floats of room, and the rows' sums (T) after them. dS_ij = P_ij (dP_ij -
 * delta_i), or delta_j where the code sums the term down key j's column. */
static void head_probs(const grads_in *g, const judge_changes *ch, const head_view *x, int kv_pass,
                       float *p, float *ds, float *delta)
{
    int T = g->T, S = g->S, column = ch->backward_rowsum == FORM_BACKWARD_ROWSUM_COLUMN;
    float *col = delta + T, *rowsum = col + S, sign = ch->backward_delta == FORM_BACKWARD_DELTA_NEGATED ? -1.0f : 1.0f;
    for (int i = 0; i < T; i++)
        delta[i] = row(g, ch, x, i, kv_pass, p + (size_t)i * S, ds + (size_t)i * S, rowsum + i);
    for (int j = 0; j < S && column; j++) {
        col[j] = 0.0f;
        for (int i = 0; i < T; i++) col[j] += p[(size_t)i * S + j] * ds[(size_t)i * S + j];
    }
    for (int i = 0; i < T; i++)
        for (int j = 0; j < S; j++) {
            size_t at = (size_t)i * S + j;
            ds[at] = sign * p[at] * (ds[at] - (column ? col[j] : delta[i]));
        }
}

static judge_status grads_simulate(void *const *outs, const grads_in *g, const judge_changes *ch)
{
    int T = g->T, S = g->S, D = g->D, H = g->H, bthd = ch->backward_layout == FORM_BACKWARD_LAYOUT_BTHD;
    float scale = form_score_scale(ch, 1, D, S);
    float qs = ch->backward_dq_scale ? 1.0f : scale, ks = ch->backward_dk_scale ? 1.0f : scale;
    int key_pass = ch->backward_tiles == FORM_BACKWARD_TILES_KEY_PASS_UNMASKED ||
                   ch->backward_tiles == FORM_BACKWARD_TILES_KEY_PASS_SKIP_DIAGONAL;
    /* dQ from the keys from j0 on: all, or the last tile's (cleared per tile). */
    int j0 = ch->backward_tiles == FORM_BACKWARD_TILES_DQ_LAST_KEYS ? (S - 1) / tile_of(ch) * tile_of(ch) : 0;
    float *p = malloc(sizeof(float) * (2 * (size_t)T * S + 2 * (size_t)T + S)), *ds = p + (size_t)T * S;
    if (!p) return JUDGE_ENOMEM;
    for (int b = 0; b < g->B; b++)
        for (int h = 0; h < H; h++) {
            size_t bh = (size_t)b * H + h;
            /* Head (b, h) of a [B, H, T, D] tensor, or as [B, T, H, D]. */
            size_t at_t = bthd ? (size_t)b * T * H * D + (size_t)h * D : bh * T * D;
            size_t at_s = bthd ? (size_t)b * S * H * D + (size_t)h * D : bh * S * D;
            const float *lse = !g->lse ? NULL : ch->backward_lse == FORM_BACKWARD_LSE_FIRST_HEAD ? g->lse
                             : ch->backward_lse == FORM_BACKWARD_LSE_BH ? g->lse + bh : g->lse + bh * T;
            head_view x = { g->q + at_t, g->k + at_s, g->v + at_s, g->out ? g->out + at_t : NULL, lse,
                            g->dout + at_t, (float *)outs[DQ] + at_t, (float *)outs[DK] + at_s,
                            (float *)outs[DV] + at_s, bthd ? (size_t)H * D : (size_t)D };
            float *delta = ds + (size_t)T * S, *rowsum = delta + T + S;
            head_probs(g, ch, &x, 0, p, ds, delta);
            for (int i = 0; i < T; i++) {
                int lo = j0, hi = S;
                if (ch->backward_dq == FORM_BACKWARD_DQ_LAST_SEEN) {   /* code that assigns dQ keeps the last seen key's term */
                    while (hi > 0 && !sees(g, ch, i, hi - 1, 0)) hi--;
                    lo = hi > 0 ? hi - 1 : 0;
                }
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    const float *kv = ch->backward_dq == FORM_BACKWARD_DQ_USES_VALUE ? x.v : x.k;
                    for (int j = lo; j < hi; j++) acc += ds[(size_t)i * S + j] * kv[(size_t)j * x.rs + c];
                    x.dq[(size_t)i * x.rs + c] = qs * acc;
                }
            }
            if (key_pass) head_probs(g, ch, &x, 1, p, ds, delta);
            /* Element (i, j) of dS and P, or element j*T + i of the flat
             * [T, S] buffer where the code reads it as [S, T]. */
            for (int j = 0; j < S; j++)
                for (int c = 0; c < D; c++) {
                    float acck = 0.0f, accv = 0.0f;
                    /* Code that zeroes dK and dV for each query keeps the last one's terms. */
                    for (int i = ch->backward_dkdv ? T - 1 : 0; i < T; i++) {
                        size_t at = (size_t)i * S + j, flat = (size_t)j * T + i;
                        acck += ds[ch->backward_dk == FORM_BACKWARD_DK_DS_UNTRANSPOSED ? flat : at] *
                                (ch->backward_dk == FORM_BACKWARD_DK_USES_KEY ? x.k[(size_t)j * x.rs + c]
                                                                              : x.q[(size_t)i * x.rs + c]);
                        accv += p[ch->backward_dv == FORM_BACKWARD_DV_P_UNTRANSPOSED ? flat : at] *
                                (ch->backward_dv == FORM_BACKWARD_DV_UNNORMALISED ? rowsum[i] : 1.0f) *
                                x.dout[(size_t)i * x.rs + c];
                    }
                    x.dk[(size_t)j * x.rs + c] = ks * acck;
                    x.dv[(size_t)j * x.rs + c] = accv;
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
