/* form.c: the shared attention form (form.h): attention with every knob of
 * libjudge/form.json, written as a learner writes it, so that the judge can
 * compute what a mistake (or a pair of them) would have returned. Float
 * arithmetic in the learner's order on purpose: an overflowing or
 * underflowing mistake must overflow where the learner's code does. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "form.h"

/* The tile widths learners pick for an online softmax; a missing rescale
 * shows differently at each, so such a mistake is tried at all of them: the
 * powers of two first (the common ones), then every other small width (a
 * tile of 5 queries by 11 keys is as likely as one of 16) and the halfway
 * steps. */
static const int tiles[] = { 1, 2, 4, 8, 16, 32, 64, 128, 3, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15, 24, 48, 96 };
enum { COMMON_TILES = 8 };

/* Variant v: tile width tiles[v / 3] (online mistakes only), and the way of
 * the last step, v % 3: divide the weighted sum by l at the end, as an online
 * softmax does; normalise the weights first (e / l), then sum, as two-pass
 * code does; or multiply the weights by 1 / l. They part only where the
 * numbers underflow, which is where some mistakes show. */
enum { LAST_STEPS = 3 };

/* Do the changes show differently at each tile width? */
static int tiled(const judge_changes *ch)
{
    return ch->online || ch->lse == FORM_LSE_LAST_TILE_MAX || ch->lse == FORM_LSE_LAST_TILE_MAX_ANY || ch->tile_keys ||
           ch->tile_k_index;
}

/* The tile widths the changes are tried at, from tiles[first(ch)]: the
 * common ones alone where whole tiles are dropped (a mistake every way of
 * which drops all the keys of a small case, and so matches the NaN of many
 * wrong codes there), but 1, where no tile is partial. */
static int first(const judge_changes *ch)
{
    return ch->tile_keys ? 1 : 0;
}

static int widths(const judge_changes *ch)
{
    return !tiled(ch) ? 1 : ch->tile_keys ? COMMON_TILES - 1 : (int)(sizeof tiles / sizeof tiles[0]);
}

int form_variants(const judge_changes *ch)
{
    return LAST_STEPS * widths(ch);
}

int form_tile(const judge_changes *ch, int variant)
{
    return tiled(ch) ? tiles[first(ch) + variant / LAST_STEPS % widths(ch)] : 0;
}

int form_common(int variant)
{
    return variant % LAST_STEPS == 0 && variant / LAST_STEPS < COMMON_TILES;
}

int form_combine(judge_changes *out, const judge_changes *a, const judge_changes *b)
{
#define KNOB(k) if (a->k && b->k) return 0; out->k = a->k ? a->k : b->k;
    FORM_KNOB_LIST(KNOB)
#undef KNOB
    return 1;
}

int form_decode_keys(const judge_changes *ch, int seen, int S_max)
{
    switch (ch->cache_keys) {
    case FORM_CACHE_KEYS_WITHOUT_NEW: return seen;
    case FORM_CACHE_KEYS_WHOLE: return S_max;
    case FORM_CACHE_KEYS_ONE_MORE:
    case FORM_CACHE_KEYS_ONE_MORE_STORED: return seen + 2;   /* S_max + 1 at most: form_decode_attention */
    default: return seen + 1;
    }
}

/* The two constants of code that swaps expf for exp2f (exp2(x log2 e) = e^x). */
static const float LN2 = 0.69314718f, LOG2E = 1.44269504f;

/* What code that swaps expf for exp2f puts in every exponent besides the
 * scale (exp_base); 1 for the rest, so their scale keeps its bits. */
float form_exp_factor(const judge_changes *ch)
{
    switch (ch->exp_base) {
    case FORM_EXP_BASE_LN2: return LN2;
    case FORM_EXP_BASE_LOG2E: return LOG2E;
    case FORM_EXP_BASE_LN2_SQUARED: return LN2 * LN2;
    default: return 1.0f;
    }
}

/* The scale as written, 1/sqrt(D) or a mistake of it. */
static float form_unit_scale(const judge_changes *ch, int H, int D, int S)
{
    switch (ch->scale) {
    case FORM_SCALE_ONE: return 1.0f;
    case FORM_SCALE_INV_D: return 1.0f / (float)D;
    case FORM_SCALE_INV_SQRT_MODEL: return 1.0f / sqrtf((float)(H * D));
    case FORM_SCALE_SQRT_D: return sqrtf((float)D);
    case FORM_SCALE_INT_SQRT: return 1.0f / (float)(int)sqrtf((float)D);
    case FORM_SCALE_INV_SQRT_KEYS: return 1.0f / sqrtf((float)S);
    case FORM_SCALE_AFTER_SOFTMAX: return 1.0f;   /* the weights get it: form_weight_scale */
    default: return 1.0f / sqrtf((float)D);
    }
}

float form_score_scale(const judge_changes *ch, int H, int D, int S)
{
    return form_exp_factor(ch) * form_unit_scale(ch, H, D, S);
}

/* What the weights are multiplied by after the softmax: 1, or the scale
 * code left off the scores and applied there. */
static float form_weight_scale(const judge_changes *ch, int D)
{
    return ch->scale == FORM_SCALE_AFTER_SOFTMAX ? 1.0f / sqrtf((float)D) : 1.0f;
}

int form_causal_offset(const judge_changes *ch, int S, int T)
{
    return ch->offset == FORM_OFFSET_ZERO ? 0 : ch->offset == FORM_OFFSET_NEGATED ? T - S : S - T;
}

/* Where query i of batch b sits among its S_b keys: i + S_b - T; i with
 * the offset taken as 0; i - (S_b - T) with it negated. */
static int query_pos(const form_attn *f, const judge_changes *ch, int i, int S_b)
{
    return i + form_causal_offset(ch, S_b, f->T);
}

/* Are there more than j ones among the n of row? (Key j is below the length
 * code takes the count of real keys for.) Stops as soon as it knows. */
static int ones_past(const unsigned char *row, int n, int j)
{
    for (int c = 0, ones = 0; c < n; c++)
        if (row[c] && ++ones > j) return 1;
    return 0;
}

/* Are keys 0 .. j of row all real? (A key loop that breaks at the first
 * padded key reaches key j.) */
static int ones_through(const unsigned char *row, int j)
{
    for (int c = 0; c <= j; c++)
        if (!row[c]) return 0;
    return 1;
}

/* Whether query i of batch b sees key j of its S_b keys, and with what
 * weight (0 hidden, 1 seen, 2 a sink counted twice): the one place the judge
 * decides it. Right behaviour, all knobs 0: query i sits at position
 * i + S_b - T; it sees j <= pos if causal, pos - W < j with a window, keys
 * below `sinks` whatever the window, and only real keys of the mask. */
static int form_sees(const form_attn *f, const judge_changes *ch, int b, int i, int j, int S_b)
{
    int pos = query_pos(f, ch, i, S_b);
    int causal = ch->causal == FORM_CAUSAL_OFF ? 0 : ch->causal == FORM_CAUSAL_ALWAYS ? 1 : f->causal;
    int seen = !causal || (ch->causal == FORM_CAUSAL_FLIPPED
                           ? j >= pos
                           : j <= pos - (ch->diagonal == FORM_DIAGONAL_EXCLUDED) + (ch->diagonal == FORM_DIAGONAL_NEXT));
    int weight = 1;
    if (f->window > 0 || ch->window == FORM_WINDOW_ZERO_APPLIED) {
        int W = f->window, in, sink = j < f->sinks + (ch->sinks == FORM_SINKS_PLUS_ONE);
        switch (ch->window) {
        case FORM_WINDOW_PLUS_ONE: in = j >= pos - W; break;
        case FORM_WINDOW_SHIFTED: in = j >= pos - W && j < pos; break;
        case FORM_WINDOW_NONE: in = 1; break;
        case FORM_WINDOW_BAND: in = abs(pos - j) < W; seen = 1; break;
        case FORM_WINDOW_MINUS_ONE: in = j > pos - W + 1; break;
        case FORM_WINDOW_AHEAD: in = j >= pos && j < pos + W; seen = 1; break;
        case FORM_WINDOW_CLAMPED_FIRST: in = j > (pos - W > f->sinks ? pos - W : f->sinks); break;
        case FORM_WINDOW_BUDGET: in = j > pos - (W - f->sinks); break;
        case FORM_WINDOW_BUDGET_MIN_ONE: in = j > pos - (W - f->sinks > 1 ? W - f->sinks : 1); break;
        case FORM_WINDOW_UNSIGNED: in = pos >= W && j > pos - W; break;
        case FORM_WINDOW_CHUNKED: in = j >= pos / W * W; break;
        default: in = j > pos - W; break;
        }
        switch (ch->sinks) {
        case FORM_SINKS_NONE: seen = seen && in; break;
        case FORM_SINKS_SEE_FUTURE: seen = (seen && in) || sink; break;
        case FORM_SINKS_TWICE: weight = sink && in ? 2 : 1; seen = seen && (in || sink); break;
        case FORM_SINKS_TWICE_AFTER_FIRST: weight = sink && in && j > 0 ? 2 : 1; seen = seen && (in || sink); break;
        default: seen = seen && (in || sink); break;
        }
    }
    if (f->has_mask && ch->padding != FORM_PADDING_IGNORED && ch->padding != FORM_PADDING_QUERIES &&
        (causal || ch->padding != FORM_PADDING_CAUSAL_ONLY)) {
        if (!f->mask) {
            if (ch->padding == FORM_PADDING_NULL_ALL) seen = 0;
        } else {
            /* Read with the wrong row stride, a learner runs into the judge's
             * guard bytes past the mask, which are non-zero: "real". */
            ptrdiff_t at = (ptrdiff_t)b * (ch->padding == FORM_PADDING_STRIDE_T ? f->T
                                           : ch->padding == FORM_PADDING_FIRST_BATCH ? 0 : f->mask_sb) +
                           (ch->padding == FORM_PADDING_QUERY_INDEX ? i : j);
            int real = at >= (ptrdiff_t)f->B * f->mask_sb || f->mask[at];
            if (ch->padding == FORM_PADDING_AS_LENGTH) real = ones_past(f->mask + (ptrdiff_t)b * f->mask_sb, S_b, j);
            if (ch->padding == FORM_PADDING_BREAK_AT_HIDDEN) real = ones_through(f->mask + (ptrdiff_t)b * f->mask_sb, j);
            seen = seen && (ch->padding == FORM_PADDING_INVERTED ? !real : real);
        }
    }
    if (ch->key_count == FORM_KEY_COUNT_SKIPS_FIRST && j == 0) seen = 0;
    return seen ? weight : 0;
}

/* The padding-on-queries mistakes zero the rows of padded positions: query
 * i's, or (keys_and_query_pos) that of its position pos. */
static int query_silenced(const form_attn *f, const judge_changes *ch, int b, int i, int pos)
{
    if (ch->padding == FORM_PADDING_KEYS_AND_QUERY_POS) i = pos;
    else if (ch->padding != FORM_PADDING_QUERIES && ch->padding != FORM_PADDING_KEYS_AND_QUERIES) return 0;
    return f->mask && i >= 0 && i < f->mask_sb && !f->mask[(ptrdiff_t)b * f->mask_sb + i];
}

/* The score of key j for the query at position pos in head h of batch b, from q.k:
 * scaled, soft-capped (Gemma-2) and given ALiBi's bias (exercise 63). A
 * hidden key (*w 0) whose -inf a cap after the mask turns into -cap is seen
 * again: *w becomes 1. With neither a cap nor ALiBi it is dot * scale. */
static float logit(const form_attn *f, const judge_changes *ch, int b, int h, int pos, int j, float dot,
                   float scale, unsigned char *w)
{
    float s = dot * scale, bias = 0.0f, cap = (float)f->cap;
    if ((f->alibi || ch->alibi == FORM_ALIBI_ALWAYS) && ch->alibi != FORM_ALIBI_NONE) {
        int n = ch->alibi == FORM_ALIBI_REVERSED ? f->H - h : ch->alibi == FORM_ALIBI_FROM_ZERO ? h
              : ch->alibi == FORM_ALIBI_BATCH_HEAD ? b * f->H + h + 1 : h + 1;
        float e = ch->alibi == FORM_ALIBI_INT_EXPONENT ? (float)(-8 * n / f->H)
                : ch->alibi == FORM_ALIBI_EIGHT_HEADS ? (float)-n : -8.0f * (float)n / (float)f->H;
        bias = exp2f(e) * (float)(j - pos);
        if (ch->alibi == FORM_ALIBI_SIGN) bias = -bias;
        if (ch->alibi == FORM_ALIBI_BEFORE_CAP || ch->alibi == FORM_ALIBI_BEFORE_SCALE) {
            s = ch->alibi == FORM_ALIBI_BEFORE_SCALE ? (dot + bias) * scale : s + bias;
            bias = 0.0f;
        }
    }
    if (f->cap > 0 && ch->softcap != FORM_SOFTCAP_NONE && ch->softcap != FORM_SOFTCAP_PROBS) {
        if (!*w && (ch->softcap == FORM_SOFTCAP_AFTER_MASK || ch->softcap == FORM_SOFTCAP_AFTER_MASK_UNBIASED)) {
            *w = 1;
            if (ch->softcap == FORM_SOFTCAP_AFTER_MASK_UNBIASED) return -cap;
            s = -cap;
        } else {
            s = ch->softcap == FORM_SOFTCAP_UNSCALED ? scale * (cap * tanhf(dot / cap))
              : ch->softcap == FORM_SOFTCAP_NO_DIVIDE ? cap * tanhf(s)
              : ch->softcap == FORM_SOFTCAP_NO_MULTIPLY ? tanhf(s / cap)
              : ch->softcap == FORM_SOFTCAP_CLAMP ? fminf(fmaxf(s, -cap), cap)
              : ch->softcap == FORM_SOFTCAP_INT_RECIPROCAL ? cap * tanhf(s * (float)(1 / f->cap))
              : cap * tanhf(s / cap);
        }
    } else if (f->cap == 0 && ch->softcap == FORM_SOFTCAP_ZERO_APPLIED) {
        s = 0.0f;   /* 0 * tanh(s / 0): 0 * (+-1) */
    }
    return s + bias;   /* bias is 0 where no ALiBi is added */
}

/* gpt-oss's sink in one query row: a logit that joins the softmax as a key;
 * it has a value (row vrow of v) only in a mistake. */
typedef struct {
    int on, unshifted, vrow;   /* unshifted 2: the sink still in the max, 3: so, and exp(max - sink); vrow -1: no value */
    float logit, e;            /* e: its weight, after the rescales of the row */
} sink_term;

#define AT(w, b, h, at, c) ((w).p[(ptrdiff_t)(b) * (w).sb + (ptrdiff_t)(h) * (w).sh + \
                              (ptrdiff_t)(at) * (w).sp + (ptrdiff_t)(c) * (w).sc])

/* acc[c] += x * v[c * sc], c < n: a row (of values, or of keys by
 * dimension) added to sums that each stay in the learner's order (over j,
 * or over c) but need not wait on each other. */
static void add_row(float *restrict acc, float x, const float *restrict v, ptrdiff_t sc, int n)
{
    if (sc == 1)   /* the same sums, vectorised */
        for (int c = 0; c < n; c++) acc[c] += x * v[c];
    else
        for (int c = 0; c < n; c++) acc[c] += x * v[(ptrdiff_t)c * sc];
}

/* The weights of one query row: e[j] for each key (after the rescales the
 * tiles applied), acc[c] the weighted values, *l the sum, *m the max used,
 * *m_last the last tile's own. Returns whether the row sees any key. */
static int row_weights(const form_attn *f, const judge_changes *ch, int tile, int i, const float *s,
                       const unsigned char *w, int S_b, int b, int g, float *e, float *acc,
                       float *l, float *m, float *m_last, sink_term *sk)
{
    int rescale_l = ch->online != FORM_ONLINE_NO_RESCALE && ch->online != FORM_ONLINE_NO_RESCALE_SUM;
    int rescale_acc = ch->online != FORM_ONLINE_NO_RESCALE && ch->online != FORM_ONLINE_NO_RESCALE_ACC &&
                      ch->online != FORM_ONLINE_NO_RESCALE_OLD_MAX;
    int no_max = ch->softmax == FORM_SOFTMAX_NO_MAX;
    /* Softmax over every key (rest_after: its scores past the causal edge are -inf). */
    int after = ch->softmax == FORM_SOFTMAX_MASK_AFTER || ch->softmax == FORM_SOFTMAX_REST_AFTER;
    int filled = ch->mask_fill != FORM_MASK_FILL_RIGHT;   /* hidden keys are keys of score 0 */
    int any = 0, width = tile > 0 ? tile : S_b;
    /* max_unscaled: the max of q . k itself, s / scale (x * 1 is x for the rest) */
    float unscale = ch->softmax == FORM_SOFTMAX_MAX_UNSCALED ? 1.0f / form_score_scale(ch, f->H, f->D, f->S) : 1.0f;
    /* *m comes in as the max the row starts from: -inf, or one carried from earlier rows */
    if (no_max || ch->softmax == FORM_SOFTMAX_MAX_FROM_ZERO) *m = 0.0f;
    *l = 0.0f;
    for (int c = 0; c < f->D; c++) acc[c] = 0.0f;
    for (int j = 0; j < S_b; j++) e[j] = 0.0f;
    if (sk->on && !sk->unshifted) {   /* the sink opens the row, as the first key */
        if (!no_max && sk->logit > *m) *m = sk->logit;
        sk->e = expf(sk->logit - *m);
        *l = sk->e;
        for (int c = 0; c < f->D && f->v.p && sk->vrow >= 0; c++) acc[c] = sk->e * AT(f->v, b, g, sk->vrow, c);
    } else if (sk->on && sk->unshifted >= 2 && !no_max && sk->logit > *m) {
        *m = sk->logit;
    }
    *m_last = *m;
    /* lanes: a key's lane, counted from key 0 or from the row's first seen
     * key; lanes 16..31 lost in the tree reduction (lost). */
    int lane0 = 0;
    if (ch->lanes == FORM_LANES_SUM_HALF_FROM_FIRST || ch->lanes == FORM_LANES_KEYS_HALF_FROM_FIRST)
        while (lane0 < S_b && !w[lane0]) lane0++;
    int lost_sum = ch->lanes != FORM_LANES_RIGHT;
    int lost_value = ch->lanes == FORM_LANES_KEYS_HALF || ch->lanes == FORM_LANES_KEYS_HALF_FROM_FIRST;
    int keys = S_b;   /* the keys the tiles cover */
    if (ch->tile_keys == FORM_TILE_KEYS_WHOLE_TILES)
        while (keys > 0 && !w[keys - 1]) keys--;
    if (ch->tile_keys == FORM_TILE_KEYS_WHOLE_TILES || ch->tile_keys == FORM_TILE_KEYS_WHOLE_TILES_OF_S)
        keys = keys / width * width;
    if ((ch->tile_keys == FORM_TILE_KEYS_CAUSAL_NO_OFFSET || ch->tile_keys == FORM_TILE_KEYS_CAUSAL_NO_OFFSET_ROWS) && f->causal) {
        /* The key tiles past i skipped, or the keys past its query tile's last row */
        int end = (i / width + 1) * width;
        if (ch->tile_keys == FORM_TILE_KEYS_CAUSAL_NO_OFFSET_ROWS && end > f->T) end = f->T;
        if (keys > end) keys = end;
    }
    for (int j0 = 0; j0 < keys; j0 += width) {
        int end = j0 + width < keys ? j0 + width : keys, used = 0;
        float own = -INFINITY;
        for (int j = j0; j < end; j++) {
            int counted = w[j] || after || ch->mask_fill == FORM_MASK_FILL_ZERO;
            if (!no_max && (counted || ch->softmax == FORM_SOFTMAX_MAX_WITH_HIDDEN) && s[j] * unscale > own)
                own = s[j] * unscale;
            used |= counted;
        }
        if (!used) {   /* a tile with no key changes nothing, but for code that keeps its max */
            if (ch->lse == FORM_LSE_LAST_TILE_MAX_ANY) *m_last = -INFINITY;
            continue;
        }
        float m2 = ch->online == FORM_ONLINE_TILE_MAX || own > *m ? own : *m;
        if (no_max) m2 = *m;
        float corr = ch->online != FORM_ONLINE_INVERTED ? expf(*m - m2) : *m == -INFINITY ? 0.0f : expf(m2 - *m);
        if (rescale_l) *l *= corr;
        if (rescale_acc && corr != 1.0f) {   /* x * 1 is x: the same bits, without a pass over every earlier key */
            for (int c = 0; c < f->D; c++) acc[c] *= corr;
            for (int j = 0; j < j0; j++) e[j] *= corr;
            sk->e *= corr;
        }
        for (int j = j0; j < end; j++) {
            if (!w[j] && !after && !filled) continue;
            float x = (float)(w[j] ? w[j] : 1) * expf(s[j] - m2);
            int lost = lost_sum && (j - lane0) % 32 >= 16;
            if (!lost) *l += x;
            if ((!w[j] && !filled) || (lost && lost_value)) continue;
            any = 1;
            e[j] = x;
            if (f->v.p) add_row(acc, x, &AT(f->v, b, g, j, 0), f->v.sc, f->D);
        }
        for (int c = 0; c < f->D && ch->online == FORM_ONLINE_DIVIDE_PER_TILE; c++) acc[c] /= *l;
        *m = m2;
        *m_last = no_max ? m2 : own;
    }
    if (sk->on && sk->unshifted) {
        sk->e = sk->unshifted == 3 ? expf(*m - sk->logit) : expf(sk->logit);
        *l += sk->e;
    }
    return any;
}

/* A query that sees no key: its weight on each key, and its output. Zero
 * when the code guards it; 0/0 where it does not; where hidden scores are a
 * finite -1e9 rather than -inf, every key of such a row scores the same and
 * weighs 1/S (the output the mean of the values). */
static float empty_weight(const judge_changes *ch, int S_b)
{
    return ch->empty == FORM_EMPTY_NAN ? NAN : ch->empty == FORM_EMPTY_UNIFORM ? 1.0f / (float)S_b : 0.0f;
}

static float empty_output(const form_attn *f, const judge_changes *ch, int b, int g, int c, int S_b)
{
    if (ch->empty != FORM_EMPTY_UNIFORM) return empty_weight(ch, S_b);   /* 0, or NaN */
    float sum = 0.0f;
    for (int j = 0; j < S_b; j++) sum += AT(f->v, b, g, j, c);
    return sum / (float)S_b;
}

/* sum_reset and acc_reset take the same values (form.json), read by these
 * two for either knob: where what is carried is reset, and whether an
 * online softmax seeded from the row's first key rescaled it. */
_Static_assert((int)FORM_SUM_RESET_NEVER == FORM_ACC_RESET_NEVER &&
               (int)FORM_SUM_RESET_PER_HEAD == FORM_ACC_RESET_PER_HEAD &&
               (int)FORM_SUM_RESET_NEVER_SEEDED == FORM_ACC_RESET_NEVER_SEEDED &&
               (int)FORM_SUM_RESET_PER_HEAD_SEEDED == FORM_ACC_RESET_PER_HEAD_SEEDED &&
               (int)FORM_SUM_RESET_PER_BATCH == FORM_ACC_RESET_PER_BATCH, "sum_reset and acc_reset differ");

static int carry_per_head(int reset)
{
    return reset == FORM_SUM_RESET_PER_HEAD || reset == FORM_SUM_RESET_PER_HEAD_SEEDED;
}

static int carry_seeded(int reset)
{
    return reset == FORM_SUM_RESET_NEVER_SEEDED || reset == FORM_SUM_RESET_PER_HEAD_SEEDED;
}

/* (pv_keys stale) Code whose weighted sum runs over all S_b keys, with one
 * weight buffer for all rows: the keys outside row i's range add what an
 * earlier row left in the buffer; the row then leaves its own weights (pi,
 * in the units its sum uses) over the keys in its range. */
static void stale_keys(const form_attn *f, const form_attn *ranged, const judge_changes *ch, int b, int g, int i,
                       int S_b, const float *pi, float *left, float *acc)
{
    if (ch->pv_keys != FORM_PV_KEYS_STALE) return;
    for (int j = 0; j < S_b; j++) {
        if (form_sees(ranged, ch, b, i, j, S_b))
            left[j] = pi[j];
        else if (f->v.p)
            add_row(acc, left[j], &AT(f->v, b, g, j, 0), f->v.sc, f->D);
    }
}

judge_status form_attention(const form_attn *f, const judge_changes *ch, int variant)
{
    int T = f->T, S = f->S, D = f->D;
    int tile = form_tile(ch, variant), last = variant % LAST_STEPS;
    int capped_probs = f->cap > 0 && ch->softcap == FORM_SOFTCAP_PROBS;
    /* Code that divided by l after every tile has its output in acc. */
    int divided = ch->online == FORM_ONLINE_DIVIDE_PER_TILE;
    int weights_first = (last && !ch->normalize && !divided) || capped_probs;
    float scale = form_score_scale(ch, f->H, f->D, f->S), wscale = form_weight_scale(ch, f->D), cap = (float)f->cap;
    size_t ts = (size_t)T * S;
    float *s = malloc(sizeof(float) * (2 * ts + (size_t)D * S + 2 * (size_t)D + 2 * (size_t)S + 1));
    unsigned char *w = malloc(ts + 1);
    if (!s || !w) {
        free(s);
        free(w);
        return JUDGE_ENOMEM;
    }
    /* scores, weights, the head's keys by dimension, one row's values, and
     * the weight (pv_keys stale) and score (scores_reset) buffers earlier rows left */
    float *p = s + ts, *kt = p + ts, *acc = kt + (size_t)D * S, *kept = acc + D, *left = kept + D;
    float *left_s = left + S;
    /* Which keys a row's loops run over: its causal and window range, the
     * mask aside (a hidden key in range is written 0). */
    form_attn ranged = *f;
    ranged.has_mask = 0;
    for (int j = 0; j < S; j++) {
        left[j] = 0.0f;
        left_s[j] = -INFINITY;
    }
    /* The last row's sum and values, where code does not reset them. */
    float carried = 0.0f, carried_m = -INFINITY, run_max = -INFINITY;
    for (int c = 0; c < D; c++) kept[c] = 0.0f;
    for (int b = 0; b < f->B; b++) {
        int S_b = f->kv_len ? f->kv_len[b] : S;
        if ((ch->key_count == FORM_KEY_COUNT_T || (ch->key_count == FORM_KEY_COUNT_T_UNMASKED && !f->causal)) && T < S_b)
            S_b = T;
        if (ch->sum_reset == FORM_SUM_RESET_PER_BATCH) carried = 0.0f;
        for (int c = 0; c < D && ch->acc_reset == FORM_ACC_RESET_PER_BATCH; c++) kept[c] = 0.0f;
        for (int h = 0; h < f->H; h++) {
            if (carry_per_head(ch->sum_reset) || ch->sum_reset == FORM_SUM_RESET_PER_HEAD_MAX) {
                carried = 0.0f;
                carried_m = -INFINITY;
            }
            for (int c = 0; c < D && carry_per_head(ch->acc_reset); c++) kept[c] = 0.0f;
            if (ch->max_scope == FORM_MAX_SCOPE_PER_HEAD) run_max = -INFINITY;
            int g = ch->gqa == FORM_GQA_MODULO ? h % f->Hkv : ch->gqa == FORM_GQA_FIRST ? 0
                  : ch->gqa == FORM_GQA_DIV_HKV ? h / f->Hkv : ch->gqa == FORM_GQA_QUERY_HEAD ? h
                  : h / (f->H / f->Hkv);
            ptrdiff_t head_end = b * f->k.sb + g * f->k.sh + (S_b - 1) * f->k.sp + (D - 1) * f->k.sc;
            if ((g >= f->Hkv || ch->kv_stride) && (size_t)head_end >= f->kv_n) {
                /* A kv head that ends past k: the learner's code reads the
                 * judge's NaN guard there (exercise 51 has out alone). */
                for (int i = 0; i < T; i++)
                    for (int c = 0; c < D && f->out.p; c++) AT(f->out, b, h, i, c) = NAN;
                continue;
            }
            /* Tiled code that reads the keys at their index inside the tile
             * (tile_k_index local) scores every tile against the first's. */
            for (int j = 0; j < S_b; j++)
                for (int c = 0; c < D; c++)
                    kt[(size_t)c * S + j] = AT(f->k, b, g, ch->tile_k_index && tile ? j % tile : j, c);
            for (int j = 0; j < S && ch->scores_reset == FORM_SCORES_RESET_PER_HEAD; j++) left_s[j] = -INFINITY;
            for (int i = 0; i < T; i++) {
                /* Each dot summed over c in turn, as a learner's loop does;
                 * the whole row at once, so that the sums need not wait on
                 * each other's adds. */
                float *si = s + (size_t)i * S;
                for (int j = 0; j < S_b; j++) si[j] = 0.0f;
                for (int c = 0; c < form_dot_dims(ch, D); c++)
                    add_row(si, AT(f->q, b, h, i, c), kt + (size_t)c * S, 1, S_b);
                for (int j = 0; j < S_b; j++) {
                    unsigned char *wij = &w[(size_t)i * S + j];
                    *wij = (unsigned char)form_sees(f, ch, b, i, j, S_b);
                    si[j] = logit(f, ch, b, h, query_pos(f, ch, i, S_b), j, si[j], scale, wij);
                    if (!*wij && ch->mask_fill) si[j] = 0.0f;
                    if (ch->softmax == FORM_SOFTMAX_REST_AFTER && f->causal && j > query_pos(f, ch, i, S_b))
                        si[j] = -INFINITY;   /* masked before the softmax; the window and padding after */
                    if (!ch->scores_reset) continue;
                    /* A key the row skips keeps the score an earlier row wrote. */
                    if (*wij)
                        left_s[j] = si[j];
                    else if (left_s[j] > -INFINITY) {
                        si[j] = left_s[j];
                        *wij = 1;
                    }
                }
            }
            if (ch->softmax == FORM_SOFTMAX_WRONG_AXIS) {
                /* Each key's column normalised over the queries that see it. */
                for (int j = 0; j < S_b; j++) {
                    float max = -INFINITY, sum = 0.0f;
                    for (int i = 0; i < T; i++)
                        if (w[(size_t)i * S + j] && s[(size_t)i * S + j] > max) max = s[(size_t)i * S + j];
                    for (int i = 0; i < T; i++) {
                        float x = w[(size_t)i * S + j] ? expf(s[(size_t)i * S + j] - max) : 0.0f;
                        p[(size_t)i * S + j] = x;
                        sum += x;
                    }
                    for (int i = 0; i < T; i++) p[(size_t)i * S + j] = sum > 0.0f ? p[(size_t)i * S + j] / sum : 0.0f;
                }
            }
            for (int i = 0; i < T; i++) {
                float *pi = p + (size_t)i * S, l = 1.0f, m = 0.0f, m_last = 0.0f, fade = 1.0f, first_w = 0.0f;
                int any, pos = query_pos(f, ch, i, S_b);
                sink_term sk = { 0, 0, -1, 0.0f, 0.0f };
                if (f->sink_logit.p && ch->learned_sink != FORM_LEARNED_SINK_DROPPED) {
                    int at = ch->learned_sink == FORM_LEARNED_SINK_BATCH_HEAD ? b * f->H + h
                           : ch->learned_sink == FORM_LEARNED_SINK_BATCH ? b : h;
                    float x = at < f->H ? AT(f->sink_logit, 0, at, 0, 0) : NAN;   /* past sinks[H]: the guard */
                    sk = (sink_term){ 1, ch->learned_sink == FORM_LEARNED_SINK_UNSHIFTED ? 1
                                      : ch->learned_sink == FORM_LEARNED_SINK_UNSHIFTED_MAX ? 2
                                      : ch->learned_sink == FORM_LEARNED_SINK_SIGN_FLIPPED ? 3 : 0,
                                      ch->learned_sink == FORM_LEARNED_SINK_VALUE_FIRST ? 0
                                      : ch->learned_sink == FORM_LEARNED_SINK_VALUE_OWN ? pos : -1,
                                      ch->learned_sink == FORM_LEARNED_SINK_SCALED ? x * scale : x, 0.0f };
                }
                if (ch->softmax == FORM_SOFTMAX_WRONG_AXIS) {
                    any = 1;
                    for (int c = 0; c < D && f->v.p; c++) {
                        acc[c] = 0.0f;
                        for (int j = 0; j < S_b; j++) acc[c] += pi[j] * AT(f->v, b, g, j, c);
                    }
                } else {
                    m = ch->max_scope ? run_max : -INFINITY;
                    any = row_weights(f, ch, tile, i, s + (size_t)i * S, w + (size_t)i * S, S_b, b, g,
                                      pi, acc, &l, &m, &m_last, &sk);
                    run_max = m;
                    /* Two-pass code adds this row's terms to the sum it kept;
                     * a row with no key, unguarded, adds NaN for good. An
                     * online softmax that starts its max at the row's first
                     * key (or sink) has rescaled what it kept by the time the
                     * max is the row's: exp(first - max). */
                    if (any && (ch->sum_reset || ch->acc_reset)) {
                        float first = sk.on && !sk.unshifted ? sk.logit : NAN;
                        for (int j = 0; j < S_b && isnan(first); j++)
                            if (w[(size_t)i * S + j]) first = s[(size_t)i * S + j];
                        fade = expf(first - m);
                    }
                    if ((ch->sum_reset == FORM_SUM_RESET_NEVER_MAX || ch->sum_reset == FORM_SUM_RESET_PER_HEAD_MAX) && any) {
                        /* An online softmax whose max and sum run on from the
                         * last row: both rescaled to the larger max. */
                        float M = m > carried_m ? m : carried_m, a = expf(m - M);
                        l = carried * expf(carried_m - M) + l * a;
                        for (int c = 0; c < D; c++) acc[c] *= a;
                        for (int j = 0; j < S_b; j++) pi[j] *= a;
                        m = M;
                    } else if (ch->sum_reset)
                        l += carried * (carry_seeded(ch->sum_reset) ? fade : 1.0f);
                    carried = !any && ch->empty == FORM_EMPTY_NAN ? NAN : l;
                    carried_m = m;
                    float inv = 1.0f / l, ps = last == 2 ? sk.e * inv : sk.e / l;
                    first_w = pi[0];
                    if (!weights_first && any) stale_keys(f, &ranged, ch, b, g, i, S_b, pi, left, acc);
                    for (int j = 0; j < S_b; j++)
                        pi[j] = !any ? empty_weight(ch, S_b) : ch->normalize ? pi[j]
                              : last == 2 ? pi[j] * inv : pi[j] / l;
                    for (int j = 0; j < S_b && capped_probs; j++) pi[j] = cap * tanhf(pi[j] / cap);
                    for (int j = 0; j < S_b && wscale != 1.0f; j++) pi[j] *= wscale;
                    for (int c = 0; c < D && f->v.p && weights_first && any; c++)
                        acc[c] = sk.vrow >= 0 ? ps * AT(f->v, b, g, sk.vrow, c) : 0.0f;
                    for (int j = 0; j < S_b && f->v.p && weights_first && any; j++)
                        add_row(acc, pi[j], &AT(f->v, b, g, j, 0), f->v.sc, D);
                    if (weights_first && any) stale_keys(f, &ranged, ch, b, g, i, S_b, pi, left, acc);
                }
                for (int c = 0; c < D && ch->acc_reset; c++) {
                    acc[c] = any || ch->empty != FORM_EMPTY_NAN
                           ? acc[c] + kept[c] * (carry_seeded(ch->acc_reset) ? fade : 1.0f) : NAN;
                    kept[c] = acc[c];
                }
                for (int c = 1; c < D && ch->acc_dims; c++) acc[c] += acc[c - 1];
                float quiet = query_silenced(f, ch, b, i, pos);
                for (int c = 0; c < D && f->out.p; c++) {
                    float o = !any ? empty_output(f, ch, b, g, c, S_b)
                            : ch->normalize || divided || weights_first || ch->softmax == FORM_SOFTMAX_WRONG_AXIS
                              ? acc[c] : acc[c] / l * wscale;
                    AT(f->out, b, h, i, c) = quiet ? 0.0f : o;
                }
                if (f->lse.p) {
                    float M = ch->lse == FORM_LSE_NO_MAX ? 0.0f : ch->lse == FORM_LSE_UNSCALED_MAX ? m / scale
                            : ch->lse == FORM_LSE_LAST_TILE_MAX || ch->lse == FORM_LSE_LAST_TILE_MAX_ANY ? m_last
                            : ch->lse == FORM_LSE_MAX_LOG2E ? m * LOG2E : m;
                    float L = any ? M + logf(l) : -INFINITY;
                    AT(f->lse, b, h, i, 0) = ch->lse == FORM_LSE_LOG2 ? L / logf(2.0f)
                                           : ch->lse == FORM_LSE_LOG2_SUM && any ? m + log2f(l)
                                           : ch->lse == FORM_LSE_LOG_OF_PRODUCT && any ? logf(l * expf(m)) : L;
                }
                if (f->probs.p)
                    for (int j = 0; j < S; j++) AT(f->probs, b, h, i, j) = j < S_b ? pi[j] : 0.0f;
                if (f->first_key.p && ch->first_key_share == FORM_FIRST_KEY_SHARE_UNNORMALIZED)
                    AT(f->first_key, b, h, i, 0) = first_w;   /* before the division */
            }
            if (f->first_key.p && ch->first_key_share != FORM_FIRST_KEY_SHARE_UNNORMALIZED)
                for (int i = 0; i < T; i++)   /* with the row stride T, query i's row starts at i*T */
                    AT(f->first_key, b, h, i, 0) = p[(size_t)i * (ch->first_key_share ? T : S)];
        }
    }
    free(s);
    free(w);
    return JUDGE_OK;
}

/* Code that attends over one row past the new token (cache_keys one_more)
 * reads, where that row is past its sequence's S_max, the next sequence's
 * row 0: as it was before that sequence's own step where code stores and
 * attends sequence by sequence (k0 and v0, the caches as they came), as
 * stored where it stores every new row first (one_more_stored), or where
 * its own new row went there (cache_advance first); past the last
 * sequence, the judge's NaN guard. So it attends over a copy with one
 * row more per sequence. Only the position-major cache [B, S, H, D] is
 * copied so: another layout (a pair of mistakes) stops at S_max. */
judge_status form_decode_attention(const form_attn *f, const judge_changes *ch, int variant,
                                   const float *k0, const float *v0)
{
    int B = f->B, S = f->S, H = f->H, D = f->D;
    size_t row = (size_t)H * D, seq = (size_t)S * row, wide = seq + row;
    int past = 0;
    for (int b = 0; b < B; b++) past |= f->kv_len[b] > S;
    int position_major = f->k.sp == (ptrdiff_t)row && f->k.sh == D && f->k.sb == (ptrdiff_t)seq;
    if (!past) return form_attention(f, ch, variant);
    int *keys = malloc(sizeof(int) * (size_t)B);
    float *k = position_major ? malloc(sizeof(float) * 2 * wide * (size_t)B) : NULL, *v = k ? k + wide * B : NULL;
    if (!keys || (position_major && !k)) {
        free(keys);
        free(k);
        return JUDGE_ENOMEM;
    }
    for (int b = 0; b < B; b++) keys[b] = f->kv_len[b] > S && !position_major ? S : f->kv_len[b];
    form_attn g = *f;
    g.kv_len = keys;
    if (position_major) {
        for (int b = 0; b < B; b++) {
            memcpy(k + b * wide, f->k.p + b * seq, sizeof(float) * seq);
            memcpy(v + b * wide, f->v.p + b * seq, sizeof(float) * seq);
            int stored = ch->cache_keys == FORM_CACHE_KEYS_ONE_MORE_STORED || ch->cache_advance == FORM_CACHE_ADVANCE_FIRST;
            const float *kn = stored ? f->k.p : k0, *vn = stored ? f->v.p : v0;
            for (size_t e = 0; e < row; e++) {
                k[b * wide + seq + e] = b + 1 < B ? kn[(b + 1) * seq + e] : NAN;
                v[b * wide + seq + e] = b + 1 < B ? vn[(b + 1) * seq + e] : NAN;
            }
        }
        g.S = S + 1;
        g.k.p = k;
        g.v.p = v;
        g.k.sb = g.v.sb = (ptrdiff_t)wide;
    }
    judge_status st = form_attention(&g, ch, variant);
    free(keys);
    free(k);
    return st;
}

/* ---- problems whose data has an "attention" spec ---- */

void form_sizes(const judge_args *a, int size[JUDGE_N_SIZES])
{
    const judge_attention *sp = a->meta->attention;
    for (int r = 0; r < JUDGE_N_SIZES; r++)
        size[r] = sp->size[r] >= 0 ? a->ints[sp->size[r]] : sp->size_value[r];
    if (!size[JUDGE_SIZE_HKV]) size[JUDGE_SIZE_HKV] = size[JUDGE_SIZE_H];
    if (!size[JUDGE_SIZE_T]) size[JUDGE_SIZE_T] = 1;
    if (!size[JUDGE_SIZE_S]) size[JUDGE_SIZE_S] = size[JUDGE_SIZE_T];
    if (!size[JUDGE_SIZE_D]) size[JUDGE_SIZE_D] = size[JUDGE_SIZE_MODEL] / size[JUDGE_SIZE_H];
    if (!size[JUDGE_SIZE_MODEL]) size[JUDGE_SIZE_MODEL] = size[JUDGE_SIZE_H] * size[JUDGE_SIZE_D];
}

static int flag(const judge_args *a, const judge_flag_spec *f)
{
    return f->param >= 0 ? a->ints[f->param] : f->value;
}

/* A view of buffer p laid out as param v's shape with v's axes; `strided`:
 * head h owns every H-th feature (the head_stride mistake). */
static form_view view_of(const judge_args *a, const judge_view_spec *v, float *p, int strided,
                         int H, int D)
{
    form_view w = { p, 0, 0, 0, 0 };
    const judge_param *pa = &a->meta->params[v->param];
    ptrdiff_t stride = 1;
    for (int d = pa->rank - 1; d >= 0; d--) {
        switch (v->axes[d]) {
        case 'b': w.sb = stride; break;
        case 'h': case 'g': w.sh = stride; break;
        case 't': w.sp = stride; break;
        case 's':   /* probs [b, h, t, s]: the key is the last index */
            if (strchr(v->axes, 't')) w.sc = stride;
            else w.sp = stride;
            break;
        case 'c': w.sc = stride; break;
        case 'f': w.sh = strided ? stride : stride * D; w.sc = strided ? stride * H : stride; break;
        }
        stride *= a->ints[pa->dims[d]];
    }
    return w;
}

/* y[T, d] = x[T, d] . w[d, d] done head by head (o_proj per_head_block,
 * first_rows): each head's D features of x by its own block of wo (its rows
 * and columns), or by wo's first D rows, the heads summed. */
static void project_heads(float *y, const float *x, const float *w, int T, int d, int D, int block)
{
    for (int t = 0; t < T; t++)
        for (int o = 0; o < d; o++) {
            float acc = 0.0f;
            for (int h = block ? o / D : 0; h < (block ? o / D + 1 : d / D); h++)
                for (int c = 0; c < D; c++)
                    acc += x[(size_t)t * d + h * D + c] * w[(size_t)((block ? h * D : 0) + c) * d + o];
            y[(size_t)t * d + o] = acc;
        }
}

/* A [B, H, rows, D] view walked as [B, rows, H, D] (qkv_layout bthd): a
 * token's rows of all heads side by side. */
static void to_bthd(form_view *w, int heads, int D)
{
    if (!w->p || w->sc != 1 || w->sp != D) return;
    w->sh = D;
    w->sp = (ptrdiff_t)heads * D;
}

/* Keys and values the wrong way round (kv swapped), or the keys summed as
 * values (keys_as_values). */
static void swap_kv(form_attn *f, const judge_changes *ch)
{
    if (!ch->kv || !f->v.p) return;
    form_view k = f->k;
    if (ch->kv == FORM_KV_SWAPPED) f->k = f->v;
    f->v = k;
}

/* y[T, d] = x[T, d] . w[d, d], or x . w^T, in float as learners write it. */
static void project(float *y, const float *x, const float *w, int T, int d, int transposed)
{
    for (int t = 0; t < T; t++)
        for (int o = 0; o < d; o++) {
            float acc = 0.0f;
            for (int i = 0; i < d; i++)
                acc += x[(size_t)t * d + i] * (transposed ? w[(size_t)o * d + i] : w[(size_t)i * d + o]);
            y[(size_t)t * d + o] = acc;
        }
}

judge_status form_simulate(void *const *outs, const judge_args *a, const judge_changes *ch,
                           int variant)
{
    const judge_attention *sp = a->meta->attention;
    int z[JUDGE_N_SIZES];
    form_sizes(a, z);
    int B = z[JUDGE_SIZE_B], H = z[JUDGE_SIZE_H], T = z[JUDGE_SIZE_T], D = z[JUDGE_SIZE_D];
    int d = z[JUDGE_SIZE_MODEL];
    int split_strided = ch->heads == FORM_HEADS_STRIDED || ch->heads == FORM_HEADS_STRIDED_SPLIT;
    int strided = ch->heads == FORM_HEADS_STRIDED || ch->heads == FORM_HEADS_STRIDED_CONCAT;   /* the concatenation */
    form_attn f = { .B = B, .H = H, .Hkv = z[JUDGE_SIZE_HKV], .T = T, .S = z[JUDGE_SIZE_S], .D = D,
                    .causal = flag(a, &sp->causal), .window = flag(a, &sp->window),
                    .sinks = flag(a, &sp->sinks), .cap = flag(a, &sp->cap), .alibi = flag(a, &sp->alibi) };
    const judge_view_spec *v = sp->view;
    if (v[JUDGE_VIEW_MASK].param >= 0) {
        f.has_mask = 1;
        f.mask = a->buf[v[JUDGE_VIEW_MASK].param];
        f.mask_sb = view_of(a, &v[JUDGE_VIEW_MASK], NULL, 0, H, D).sb;
    }
    static const int outputs[] = { JUDGE_VIEW_OUT, JUDGE_VIEW_LSE, JUDGE_VIEW_PROBS, JUDGE_VIEW_FIRST_KEY };
    form_view *dst[] = { &f.out, &f.lse, &f.probs, &f.first_key };
    for (int o = 0; o < 4; o++)
        if (v[outputs[o]].param >= 0)
            *dst[o] = view_of(a, &v[outputs[o]], outs[v[outputs[o]].param], strided && o == 0, H, D);
    if (v[JUDGE_VIEW_X].param < 0) {
        f.q = view_of(a, &v[JUDGE_VIEW_Q], a->buf[v[JUDGE_VIEW_Q].param], 0, H, D);
        f.k = view_of(a, &v[JUDGE_VIEW_K], a->buf[v[JUDGE_VIEW_K].param], 0, H, D);
        f.kv_n = a->len[v[JUDGE_VIEW_K].param];
        if (v[JUDGE_VIEW_V].param >= 0)   /* exercise 48 returns only the weights */
            f.v = view_of(a, &v[JUDGE_VIEW_V], a->buf[v[JUDGE_VIEW_V].param], 0, H, D);
        if (v[JUDGE_VIEW_SINK_LOGIT].param >= 0)
            f.sink_logit = view_of(a, &v[JUDGE_VIEW_SINK_LOGIT], a->buf[v[JUDGE_VIEW_SINK_LOGIT].param], 0, H, D);
        if (ch->k_layout == FORM_K_LAYOUT_D_MAJOR && f.k.sp == f.k.sc * D) {
            f.k.sp = f.k.sc;   /* a head's [S, D] keys read as [D, S] */
            f.k.sc *= f.S;
        }
        if (ch->probs_layout == FORM_PROBS_LAYOUT_KEY_MAJOR && f.probs.p && f.probs.sp == f.probs.sc * f.S) {
            f.probs.sp = f.probs.sc;   /* [T, S] weights written as [S, T] */
            f.probs.sc *= T;
        }
        if (ch->kv_stride == FORM_KV_STRIDE_T && f.k.sh == f.k.sp * f.S && f.k.sb == f.k.sh * f.Hkv) {
            f.k.sh = f.v.sh = f.k.sp * T;   /* [B, Hkv, S, D] walked as if it were [B, Hkv, T, D] */
            f.k.sb = f.v.sb = f.k.sh * f.Hkv;
        }
        if (ch->kv_stride == FORM_KV_STRIDE_BATCH_H && f.k.sb == f.k.sh * f.Hkv)
            f.k.sb = f.v.sb = f.k.sh * H;   /* a batch of H heads */
        int all = ch->qkv_layout == FORM_QKV_LAYOUT_BTHD;
        if (all || ch->qkv_layout == FORM_QKV_LAYOUT_OUT_BTHD) to_bthd(&f.out, H, D);
        if (all || ch->qkv_layout == FORM_QKV_LAYOUT_Q_BTHD) to_bthd(&f.q, H, D);
        if (all || ch->qkv_layout == FORM_QKV_LAYOUT_KV_BTHD) {
            to_bthd(&f.k, f.Hkv, D);
            to_bthd(&f.v, f.Hkv, D);
        }
        swap_kv(&f, ch);
        return form_attention(&f, ch, variant);
    }
    /* Queries, keys and values are projections of x (exercise 49), and the
     * concatenated heads go through wo. */
    size_t n = (size_t)B * T * d;
    /* Zeros: code with overlapping heads (row_stride_d) never writes some of cat. */
    float *q = calloc(4 * (n ? n : 1), sizeof(float)), *k = q + n, *val = k + n, *cat = val + n;
    if (!q) return JUDGE_ENOMEM;
    const float *x = a->buf[v[JUDGE_VIEW_X].param];
    int tr = ch->weights == FORM_WEIGHTS_TRANSPOSED;
    float *qkv[3] = { q, k, val };
    for (int b = 0; b < B; b++)
        for (int w = 0; w < 3; w++)
            project(qkv[w] + (size_t)b * T * d, x + (size_t)b * T * d, a->buf[sp->proj[w]], T, d, tr);
    f.q = view_of(a, &v[JUDGE_VIEW_X], q, split_strided, H, D);
    f.k = view_of(a, &v[JUDGE_VIEW_X], k, split_strided, H, D);
    f.v = view_of(a, &v[JUDGE_VIEW_X], val, split_strided, H, D);
    f.out = view_of(a, &v[JUDGE_VIEW_X], cat, strided, H, D);
    if (ch->heads == FORM_HEADS_CONCAT_HEAD_MAJOR) {   /* [H, T, D] in each batch's [T, d] */
        f.out.sh = (ptrdiff_t)T * D;
        f.out.sp = D;
    }
    if (ch->heads == FORM_HEADS_ROW_STRIDE_D || ch->heads == FORM_HEADS_ROW_STRIDE_D_SPLIT) f.q.sp = f.k.sp = f.v.sp = D;
    if (ch->heads == FORM_HEADS_SPLIT_FIRST) f.q.sh = f.k.sh = f.v.sh = 0;
    if (ch->heads == FORM_HEADS_SPLIT_HEAD_MAJOR) {   /* [H, T, D] read in each batch's [T, d] */
        f.q.sh = f.k.sh = f.v.sh = (ptrdiff_t)T * D;
        f.q.sp = f.k.sp = f.v.sp = D;
    }
    if (ch->heads == FORM_HEADS_ROW_STRIDE_D) f.out.sp = D;
    swap_kv(&f, ch);
    judge_status st = form_attention(&f, ch, variant);
    float *out = outs[v[JUDGE_VIEW_OUT].param];
    for (int b = 0; st == JUDGE_OK && b < B; b++) {
        float *y = out + (size_t)b * T * d, *c = cat + (size_t)b * T * d;
        const float *wo = a->buf[sp->proj[3]];
        if (ch->o_proj == FORM_O_PROJ_NONE) memcpy(y, c, sizeof(float) * (size_t)T * d);
        else if (ch->o_proj) project_heads(y, c, wo, T, d, D, ch->o_proj == FORM_O_PROJ_PER_HEAD_BLOCK);
        else project(y, c, wo, T, d, tr);
    }
    free(q);
    return st;
}

void form_coords(char *buf, size_t n, const judge_args *a, int p, size_t i, judge_lang lang)
{
    const judge_attention *sp = a->meta->attention;
    const judge_view_spec *v = NULL;
    for (int k = 0; k < JUDGE_N_VIEWS && !v; k++)
        if (sp->view[k].param == p) v = &sp->view[k];
    const judge_param *pa = &a->meta->params[p];
    int idx[JUDGE_MAX_RANK] = { 0 }, z[JUDGE_N_SIZES];
    form_sizes(a, z);
    for (int d = pa->rank - 1; d >= 0; d--) {
        size_t len = (size_t)a->ints[pa->dims[d]];
        idx[d] = (int)(i % len);
        i /= len;
    }
    int D = z[JUDGE_SIZE_D], group = z[JUDGE_SIZE_H] / z[JUDGE_SIZE_HKV];
    buf[0] = 0;
    for (int d = 0; d < pa->rank; d++) {
        int x = idx[d];
        switch (v ? v->axes[d] : 'c') {
        case 'b': judge_coord(buf, n, lang, JUDGE_MSG_AXIS_B, x); break;
        case 'h':
            if (group > 1) judge_coord(buf, n, lang, JUDGE_MSG_AXIS_H_GROUP, x, x / group);
            else judge_coord(buf, n, lang, JUDGE_MSG_AXIS_H, x);
            break;
        case 'g': judge_coord(buf, n, lang, JUDGE_MSG_AXIS_G, x); break;
        case 't': judge_coord(buf, n, lang, JUDGE_MSG_AXIS_T, x); break;
        case 's': judge_coord(buf, n, lang, JUDGE_MSG_AXIS_S, x); break;
        case 'f': judge_coord(buf, n, lang, JUDGE_MSG_AXIS_F, x, x / D, x % D); break;
        default: judge_coord(buf, n, lang, JUDGE_MSG_AXIS_C, x); break;
        }
    }
}

int form_slice(const judge_args *a, int p, size_t i)
{
    const judge_attention *sp = a->meta->attention;
    const judge_view_spec *v = NULL;
    for (int k = 0; sp && k < JUDGE_N_VIEWS && !v; k++)
        if (sp->view[k].param == p) v = &sp->view[k];
    int z[JUDGE_N_SIZES] = { 0 }, slice = 0, axes = 0;
    if (v) form_sizes(a, z);
    const judge_param *pa = &a->meta->params[p];
    for (int d = pa->rank - 1; d >= 0; d--) {
        size_t len = (size_t)a->ints[pa->dims[d]], x = i % len;
        i /= len;
        const char *name = a->meta->params[pa->dims[d]].name;
        char axis = v ? v->axes[d] : !strcmp(name, "B") ? 'b' : !strcmp(name, "H") ? 'h' : 'c';
        if (axis == 'f') {   /* feature h*D + c */
            axis = 'h';
            x /= (size_t)z[JUDGE_SIZE_D];
        }
        if (axis == 'b') axes |= 1, slice |= x > 0;
        if (axis == 'h') axes |= 2, slice |= (x > 0) << 1;
    }
    return axes ? slice : -1;
}

/* ---- probing which keys reach which queries ---- */

int form_probe_len(const judge_args *a)
{
    int z[JUDGE_N_SIZES];
    form_sizes(a, z);
    return z[JUDGE_SIZE_S];
}

void form_probe_base(judge_args *a)
{
    const judge_attention *sp = a->meta->attention;
    if (sp->view[JUDGE_VIEW_X].param >= 0)   /* q = 0: every score equal */
        memset(a->buf[sp->proj[0]], 0, a->len[sp->proj[0]] * sizeof(float));
    else if (sp->view[JUDGE_VIEW_V].param >= 0) {
        /* Scores near 0, so that every key a query sees weighs about the
         * same whatever the code's scale: a key it sees must move its output
         * even where a mistake (no 1/sqrt(D)) sharpens the softmax. Where
         * there are no values (exercise 48) the keys' change is what shows. */
        float *q = a->buf[sp->view[JUDGE_VIEW_Q].param];
        for (size_t e = 0; e < a->len[sp->view[JUDGE_VIEW_Q].param]; e++) q[e] *= 1.0f / 64;
    }
}

void form_probe_perturb(judge_args *a, int j)
{
    const judge_attention *sp = a->meta->attention;
    int z[JUDGE_N_SIZES];
    form_sizes(a, z);
    int x = sp->view[JUDGE_VIEW_X].param >= 0, heads = x ? z[JUDGE_SIZE_H] : z[JUDGE_SIZE_HKV];
    const int moved[2] = { x ? JUDGE_VIEW_X : JUDGE_VIEW_K,
                           x || sp->view[JUDGE_VIEW_V].param < 0 ? -1 : JUDGE_VIEW_V };
    for (int t = 0; t < 2 && moved[t] >= 0; t++) {
        const judge_view_spec *v = &sp->view[moved[t]];
        form_view w = view_of(a, v, a->buf[v->param], 0, z[JUDGE_SIZE_H], z[JUDGE_SIZE_D]);
        for (int g = 0; g < heads; g++)
            for (int c = 0; c < z[JUDGE_SIZE_D]; c++) AT(w, 0, g, j, c) += 0.5f;
    }
}

void form_probe_row(const judge_args *a, int i, int *param, size_t *start, size_t *n,
                    ptrdiff_t *key_step)
{
    const judge_attention *sp = a->meta->attention;
    int z[JUDGE_N_SIZES];
    form_sizes(a, z);
    /* The output, or where there is none (exercise 48) the weights. */
    const judge_view_spec *v = &sp->view[sp->view[JUDGE_VIEW_OUT].param >= 0 ? JUDGE_VIEW_OUT : JUDGE_VIEW_PROBS];
    form_view w = view_of(a, v, NULL, 0, z[JUDGE_SIZE_H], z[JUDGE_SIZE_D]);
    size_t width = strchr(v->axes, 'f') ? (size_t)z[JUDGE_SIZE_MODEL]   /* a token's every feature */
                 : strchr(v->axes, 's') ? (size_t)z[JUDGE_SIZE_S] : (size_t)z[JUDGE_SIZE_D];
    *param = v->param;
    *n = i < z[JUDGE_SIZE_T] ? width : 0;
    *start = (size_t)i * (size_t)w.sp;
    *key_step = v == &sp->view[JUDGE_VIEW_PROBS] ? w.sc : 0;
}
