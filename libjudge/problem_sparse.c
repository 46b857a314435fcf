/* problem_sparse.c: what the judge knows about exercises 69 (top-k sparse
 * attention) and 70 (hybrid local + global attention) beyond their data in
 * problems/69-topk-attention and problems/70-hybrid-attention: how their
 * hidden inputs are made, their references (the core's att_topk_ref and
 * att_hybrid_ref), their classic mistakes (simulated here: which keys a
 * query keeps depends on its scores in 69 and on a list of global positions
 * in 70, neither of which the shared attention form's mask can say), and
 * the coordinates of an output. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "att.h"
#include "form.h"
#include "judge.h"

enum { OUT, Q, K, V, PB, PH, PT, PD, PTOPK, N_PARAMS };

static const char *const param_names[N_PARAMS] = {
    "out", "q", "k", "v", "B", "H", "T", "D", "topk",
};

/* x[i] = m / 2 with m uniform in -4 .. 4, times `scale` (a power of 2): every
 * dot product of such vectors is a multiple of 1/4 (times scale^2) far inside
 * float's 24 bits, so it is exact in any summation order, float or double,
 * and two keys tie exactly when their dot products are equal. The coarse grid
 * makes such ties common, so the tie rule shows. */
static void fill_halves(float *x, size_t n, uint64_t seed, uint64_t stream, float scale)
{
    for (size_t i = 0; i < n; i++)
        x[i] = (float)((int)(att_rng_u64(seed, stream, i) % 9) - 4) * 0.5f * scale;
}

/* With "negative" (judge_sign) the values stay multiples of 1/4, so the
 * dot products stay exact. */
static void make_inputs(judge_args *a, const judge_case *c, uint64_t seed, int case_index)
{
    uint64_t stream = (uint64_t)case_index << 8;
    fill_halves(a->buf[Q], a->len[Q], seed, stream + Q, c->scale);
    fill_halves(a->buf[K], a->len[K], seed, stream + K, 1.0f);
    if (c->negative) {
        judge_sign(a->buf[Q], a->len[Q], -1);
        judge_sign(a->buf[K], a->len[K], 1);
    }
    att_fill_uniform(a->buf[V], a->len[V], seed, stream + V, 1.0f);
}

static judge_status reference(void *const *outs, const judge_args *a)
{
    int T = a->ints[PT];
    double *scratch = malloc(sizeof(double) * (size_t)T);
    unsigned char *keep = malloc((size_t)T);
    att_status st = ATT_EBADSHAPE;
    if (scratch && keep)
        st = att_topk_ref(outs[OUT], a->buf[Q], a->buf[K], a->buf[V], a->ints[PB], a->ints[PH], T,
                          a->ints[PD], a->ints[PTOPK], scratch, keep);
    free(scratch);
    free(keep);
    if (!scratch || !keep) return JUDGE_ENOMEM;
    return st == ATT_OK ? JUDGE_OK : JUDGE_EREFERENCE;
}

/* ---- what mistaken code returns: float scores as learners compute them
 * (q . k, then the scale), each key's rank counted among the candidates the
 * mistake ranks, a softmax over what it keeps. The judge's model of wrong
 * code, not a reference. ---- */

/* Does candidate m outrank candidate j (values x, ties by index)? */
static int outranks(const judge_changes *ch, const float *x, int m, int j)
{
    if (x[m] != x[j]) return x[m] > x[j];
    if (ch->topk_rank == FORM_TOPK_RANK_TIES_KEPT) return 0;
    return ch->topk_rank == FORM_TOPK_RANK_TIES_HIGH ? m > j : m < j;
}

/* Query i's row: scores s (T floats), the ranked values x and the kept flags
 * (T each), out_i (D floats); rows of q, k and v rs floats apart (D, or H * D
 * read as [B, T, H, D]); *carried, the softmax sum and max code did not reset
 * (sum_reset, max_scope), the row's start from and end as. */
typedef struct {
    float sum, max;
} carried_stats;

static void topk_row(const judge_changes *ch, const float *q, const float *k, const float *v, int T,
                     int D, int topk, int i, float *s, float *x, unsigned char *keep, float *out,
                     size_t rs, carried_stats *carried)
{
    float scale = form_score_scale(ch, 1, D, T);
    int r = ch->topk_rank, n = ch->topk_count == FORM_TOPK_COUNT_MINUS_ONE ? topk - 1
                              : ch->topk_count == FORM_TOPK_COUNT_PLUS_ONE ? topk + 1 : topk;
    /* The candidates: the visible keys, or every key (the future with its
     * own score, or with the 0 of a zeroed score row). */
    int cands = r == FORM_TOPK_RANK_BEFORE_MASK || r == FORM_TOPK_RANK_MASKED_ZERO ? T : i + 1;
    if (ch->topk_clamp == FORM_TOPK_CLAMP_TO_I && n > i) n = i;
    for (int j = 0; j < T; j++) {
        float dot = 0.0f;
        for (int c = 0; c < form_dot_dims(ch, D); c++) {
            float qc = q[(size_t)i * rs + c];
            if (ch->topk_scores == FORM_TOPK_SCORES_Q_SCALED) qc *= scale;
            if (ch->topk_scores == FORM_TOPK_SCORES_Q_DIVIDED) qc /= sqrtf((float)D);
            dot += qc * k[(size_t)j * rs + c];
        }
        s[j] = ch->topk_scores ? dot : dot * scale;
        x[j] = j > i && r == FORM_TOPK_RANK_MASKED_ZERO ? 0.0f : r == FORM_TOPK_RANK_ABS ? fabsf(s[j]) : s[j];
    }
    for (int j = 0; j <= i; j++) {
        int rank = 0;
        for (int m = 0; m < cands; m++)
            rank += m != j && (m != i || r != FORM_TOPK_RANK_SELF_EXCLUDED) && outranks(ch, x, m, j);
        keep[j] = (ch->topk_keep && keep[j]) || (rank < n && (rank > 0 || ch->topk_count != FORM_TOPK_COUNT_BEST_DROPPED));
    }
    /* Code that picks topk keys where fewer are visible: the picks past them
     * are key 0 again (it weighs 1 + that many), or the future keys up to
     * topk - 1 as they lie. */
    int over = topk > i + 1 ? topk - (i + 1) : 0;
    int seen = ch->topk_clamp == FORM_TOPK_CLAMP_FUTURE && over ? (topk < T ? topk : T) : i + 1;
    float w0 = ch->topk_clamp == FORM_TOPK_CLAMP_FIRST_REPEATED ? 1.0f + (float)over : 1.0f;
    for (int j = i + 1; j < seen; j++) keep[j] = 1;
    /* Without renormalising: the softmax over every visible key, the weights
     * of the keys not kept zeroed afterwards. */
    int all = ch->topk_renorm == FORM_TOPK_RENORM_NONE;
    float max = ch->softmax == FORM_SOFTMAX_MAX_FROM_ZERO ? 0.0f : ch->max_scope ? carried->max : -INFINITY;
    float sum = carried->sum;
    for (int j = 0; j < (ch->softmax == FORM_SOFTMAX_MAX_WITH_HIDDEN ? T : seen); j++)
        if ((all || keep[j] || j > i) && s[j] > max) max = s[j];
    if (ch->softmax == FORM_SOFTMAX_NO_MAX) max = 0.0f;
    for (int j = 0; j < seen; j++)
        if (all || keep[j]) sum += (j ? 1.0f : w0) * expf(s[j] - max);
    for (int c = 0; c < D; c++) {
        float acc = 0.0f;
        for (int j = 0; j < seen; j++)
            if (keep[j]) acc += (j ? 1.0f : w0) * expf(s[j] - max) * v[(size_t)j * rs + c];
        out[c] = sum > 0.0f ? acc / sum : 0.0f;
    }
    carried->sum = ch->sum_reset ? sum : 0.0f;
    carried->max = max;
}

static judge_status simulate(void *const *outs, const judge_args *a, const judge_changes *ch,
                             int variant)
{
    (void)variant;
    int T = a->ints[PT], D = a->ints[PD];
    float *s = malloc(sizeof(float) * 2 * (size_t)T);
    unsigned char *keep = calloc((size_t)T, 1);   /* kept flags code never clears start at 0 */
    if (!s || !keep) {
        free(s);
        free(keep);
        return JUDGE_ENOMEM;
    }
    carried_stats carried = { 0.0f, -INFINITY };   /* rows in the order b, h, i */
    int H = a->ints[PH], bthd = ch->qkv_layout == FORM_QKV_LAYOUT_BTHD;
    size_t rs = bthd ? (size_t)H * D : (size_t)D;
    for (size_t bh = 0; bh < (size_t)a->ints[PB] * H; bh++) {
        size_t o = bthd ? bh / H * T * rs + bh % H * D : bh * T * D;
        if (ch->sum_reset == FORM_SUM_RESET_PER_HEAD) carried.sum = 0.0f;
        if (ch->max_scope == FORM_MAX_SCOPE_PER_HEAD) carried.max = -INFINITY;
        if (ch->topk_keep == FORM_TOPK_KEEP_PER_HEAD) memset(keep, 0, (size_t)T);
        for (int i = 0; i < T; i++)
            topk_row(ch, (const float *)a->buf[Q] + o, (const float *)a->buf[K] + o,
                     (const float *)a->buf[V] + o, T, D, a->ints[PTOPK], i, s, s + T, keep,
                     (float *)outs[OUT] + o + (size_t)i * rs, rs, &carried);
    }
    free(s);
    free(keep);
    return JUDGE_OK;
}

/* out [B, H, T, D]: batch, head, query position, dim; B, H, T, D are the
 * same params in both exercises (70's global_idx comes before them). */
static void coords(char *buf, size_t n, const judge_args *a, int p, size_t i, judge_lang lang)
{
    (void)p;
    int s = a->meta->n_params == N_PARAMS ? 0 : 1;
    int H = a->ints[PH + s], T = a->ints[PT + s], D = a->ints[PD + s];
    size_t row = i / (size_t)D;
    buf[0] = 0;
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_B, (int)(row / (size_t)T / (size_t)H));
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_H, (int)(row / (size_t)T % (size_t)H));
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_T, (int)(row % (size_t)T));
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_C, (int)(i % (size_t)D));
}

const judge_ops judge_topk_ops = {
    "topk-attention", param_names, N_PARAMS, make_inputs, reference, simulate, coords, NULL, NULL,
};

/* ---- 70: a sliding window plus global tokens ---- */

enum { H_OUT, H_Q, H_K, H_V, H_GLOBAL, H_B, H_H, H_T, H_D, H_W, H_G, H_N_PARAMS };

static const char *const hybrid_param_names[H_N_PARAMS] = {
    "out", "q", "k", "v", "global_idx", "B", "H", "T", "D", "W", "G",
};

/* global_idx [T] holds G sorted distinct positions, drawn by selection
 * sampling (each position in turn, taken with chance wanted / left), so they
 * are spread over the sequence, rarely the first G; the unused tail is 0.
 * q, k, v as exercise 50's. */
static void make_hybrid_inputs(judge_args *a, const judge_case *c, uint64_t seed, int case_index)
{
    uint64_t stream = (uint64_t)case_index << 8;
    int T = a->ints[H_T], G = a->ints[H_G], n = 0, *idx = a->buf[H_GLOBAL];
    att_fill_uniform(a->buf[H_Q], a->len[H_Q], seed, stream + H_Q, 1.7320508f * c->scale);
    att_fill_uniform(a->buf[H_K], a->len[H_K], seed, stream + H_K, 1.7320508f);
    if (c->negative) {
        judge_sign(a->buf[H_Q], a->len[H_Q], -1);
        judge_sign(a->buf[H_K], a->len[H_K], 1);
    }
    att_fill_uniform(a->buf[H_V], a->len[H_V], seed, stream + H_V, 1.0f);
    for (int t = 0; t < T; t++)
        if (n < G && att_rng_u64(seed, stream + H_GLOBAL, (uint64_t)t) % (uint64_t)(T - t) < (uint64_t)(G - n))
            idx[n++] = t;
    for (int g = n; g < T; g++) idx[g] = 0;
}

static judge_status hybrid_reference(void *const *outs, const judge_args *a)
{
    int T = a->ints[H_T];
    double *scratch = malloc(sizeof(double) * (size_t)T);
    unsigned char *seen = malloc((size_t)T);
    att_status st = ATT_EBADSHAPE;
    if (scratch && seen)
        st = att_hybrid_ref(outs[H_OUT], a->buf[H_Q], a->buf[H_K], a->buf[H_V], a->buf[H_GLOBAL],
                            a->ints[H_B], a->ints[H_H], T, a->ints[H_D], a->ints[H_W], a->ints[H_G],
                            scratch, seen);
    free(scratch);
    free(seen);
    if (!scratch || !seen) return JUDGE_ENOMEM;
    return st == ATT_OK ? JUDGE_OK : JUDGE_EREFERENCE;
}

/* ---- what mistaken code returns: float attention over the keys each
 * query sees as the mistake decides, a global key seen twice weighing 2.
 * The judge's model of wrong code, not a reference. ---- */

/* How often query i sees key j (0, 1, or 2 for a global key counted once
 * for the window and once as global), with `global` the flags of the
 * positions (g[x] = 1: global). */
static int hybrid_sees(const judge_changes *ch, const unsigned char *global, int W, int i, int j)
{
    int gq = global[i] && ch->hybrid_global != FORM_HYBRID_GLOBAL_KEYS_ONLY
          && ch->hybrid_global != FORM_HYBRID_GLOBAL_NONE;
    int gk = global[j] && ch->hybrid_global != FORM_HYBRID_GLOBAL_NONE
          && ch->hybrid_global != FORM_HYBRID_GLOBAL_QUERIES_ONLY;
    int in = ch->hybrid_window == FORM_HYBRID_WINDOW_PLUS_ONE ? j >= i - W
           : ch->hybrid_window == FORM_HYBRID_WINDOW_MINUS_ONE ? j > i - W + 1
           : ch->hybrid_window == FORM_HYBRID_WINDOW_UNSIGNED ? i >= W && j > i - W
           : (ch->hybrid_window == FORM_HYBRID_WINDOW_NONE || j > i - W);
    if (gq && ch->hybrid_global == FORM_HYBRID_GLOBAL_SEE_FUTURE) return 1;
    if (gk && ch->hybrid_global == FORM_HYBRID_GLOBAL_KEYS_FUTURE && j > i) return 1;
    if (j > i) return 0;
    if (gq) return 1;
    if (gk && in && ch->hybrid_count == FORM_HYBRID_COUNT_TWICE) return 2;
    if (gk && j == i - W && ch->hybrid_count == FORM_HYBRID_COUNT_EDGE_GAP) return in;
    return in || gk;
}

static judge_status hybrid_simulate(void *const *outs, const judge_args *a, const judge_changes *ch,
                                    int variant)
{
    (void)variant;
    int T = a->ints[H_T], D = a->ints[H_D], W = a->ints[H_W], G = a->ints[H_G];
    const int *idx = a->buf[H_GLOBAL];
    float *s = malloc(sizeof(float) * (size_t)T);
    unsigned char *global = calloc((size_t)T, 1);
    if (!s || !global) {
        free(s);
        free(global);
        return JUDGE_ENOMEM;
    }
    /* The leading-G mistake reads G as "the first G positions". */
    for (int g = 0; g < G - (ch->hybrid_index == FORM_HYBRID_INDEX_LAST_MISSED); g++) {
        int x = ch->hybrid_index == FORM_HYBRID_INDEX_LEADING ? g : idx[g];
        if (x >= 0 && x < T) global[x] = 1;
    }
    float scale = form_score_scale(ch, 1, D, T);
    for (size_t bh = 0; bh < (size_t)a->ints[H_B] * a->ints[H_H]; bh++) {
        const float *q = (const float *)a->buf[H_Q] + bh * T * D, *k = (const float *)a->buf[H_K] + bh * T * D;
        const float *v = (const float *)a->buf[H_V] + bh * T * D;
        for (int i = 0; i < T; i++) {
            float max = ch->softmax == FORM_SOFTMAX_MAX_FROM_ZERO ? 0.0f : -INFINITY, sum = 0.0f;
            float *o = (float *)outs[H_OUT] + (bh * T + i) * D;
            /* A hidden key is left out, or (mask_fill zero) scores 0 and stays
             * in; zero_past: so up to the query, past it out of the loop. */
            for (int j = 0; j < T; j++) {
                float dot = 0.0f;
                for (int c = 0; c < form_dot_dims(ch, D); c++) dot += q[(size_t)i * D + c] * k[(size_t)j * D + c];
                int w = hybrid_sees(ch, global, W, i, j);
                int fill = ch->mask_fill == FORM_MASK_FILL_ZERO || (ch->mask_fill == FORM_MASK_FILL_ZERO_PAST && j <= i);
                s[j] = w || !fill ? dot * scale : 0.0f;
                int in_max = w || fill || ((ch->softmax == FORM_SOFTMAX_MAX_WITH_HIDDEN || ch->softmax == FORM_SOFTMAX_REST_AFTER) && j <= i);
                if (in_max && s[j] > max) max = s[j];
            }
            if (ch->softmax == FORM_SOFTMAX_NO_MAX) max = 0.0f;
            /* The weights, only of the keys seen: an unseen key's score may be
             * far above the max, and 0 * inf is NaN. Code that applies the
             * window and globals after a causal softmax (rest_after) sums
             * every past key. */
            for (int j = 0; j < T; j++) {
                int w = hybrid_sees(ch, global, W, i, j);
                int fill = ch->mask_fill == FORM_MASK_FILL_ZERO || (ch->mask_fill == FORM_MASK_FILL_ZERO_PAST && j <= i);
                float e = expf(s[j] - max);
                s[j] = w ? (float)w * e : fill ? e : 0.0f;
                sum += ch->softmax == FORM_SOFTMAX_REST_AFTER && j <= i ? e : s[j];
            }
            float acc = 0.0f;   /* (acc_dims carried) one for the row */
            for (int c = 0; c < D; c++) {
                if (!ch->acc_dims) acc = 0.0f;
                for (int j = 0; j < T; j++) acc += s[j] * v[(size_t)j * D + c];
                o[c] = acc / sum;   /* key i is always seen */
            }
        }
    }
    free(s);
    free(global);
    return JUDGE_OK;
}

const judge_ops judge_hybrid_ops = {
    "hybrid-attention", hybrid_param_names, H_N_PARAMS, make_hybrid_inputs, hybrid_reference,
    hybrid_simulate, coords, NULL, NULL,
};
