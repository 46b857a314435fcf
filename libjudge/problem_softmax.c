/* problem_softmax.c: what the judge knows about exercise 45, stable softmax,
 * beyond its data in problems/45-stable-softmax: its hidden inputs (with rows
 * of -inf and scores that overflow expf), its reference (the core's
 * att_softmax_ref), and the classic mistakes it can name. No probe: a softmax
 * row has no queries and keys to picture. */
#include <math.h>
#include <string.h>
#include "att.h"
#include "form.h"
#include "judge.h"

enum { OUT, X, PROWS, PN, N_PARAMS };

static const char *const param_names[N_PARAMS] = { "out", "x", "rows", "n" };

/* Which entries are -inf: the case's "mask" names the pattern. "right": row r
 * loses its last r % (n + 1) entries, so row n is fully -inf; "random": one
 * entry in four, and every fourth row entirely. */
static int masked(const judge_case *c, uint64_t seed, uint64_t stream, int r, int j, int n)
{
    if (!strcmp(c->mask, "right")) return j >= n - r % (n + 1);
    if (!strcmp(c->mask, "random"))
        return r % 4 == 3 || (att_rng_u64(seed, stream, (uint64_t)r * n + j) & 3) == 0;
    return 0;
}

static void make_inputs(judge_args *a, const judge_case *c, uint64_t seed, int case_index)
{
    int rows = a->ints[PROWS], n = a->ints[PN];
    uint64_t stream = (uint64_t)case_index << 8;
    float *x = a->buf[X];
    att_fill_uniform(x, a->len[X], seed, stream + X, c->scale);
    for (int r = 0; r < rows; r++)
        for (int j = 0; j < n; j++) {
            /* Odd rows sit 2*scale lower: with a large scale every entry is far
             * below zero, where exp() underflows unless the max is subtracted
             * (and a max that starts at 0 instead of -inf gives 0/0). Even
             * rows reach +scale, where exp() overflows without it. */
            if (r % 2) x[r * n + j] -= 2.0f * c->scale;
            if (masked(c, seed, stream + 1, r, j, n)) x[r * n + j] = -INFINITY;
        }
}

static judge_status reference(void *const *outs, const judge_args *a)
{
    att_softmax_ref(outs[OUT], a->buf[X], a->ints[PROWS], a->ints[PN]);
    return JUDGE_OK;
}

/* ---- what mistaken code returns: one plain float softmax with the knobs
 * of the problem's mistakes (problem.json), the judge's model of wrong code
 * (not a reference) ---- */

/* What code that does not reset them per row carries to the next one. */
typedef struct {
    float max, sum;
} carried;

/* The raw values' softmax in double, as code that trusts double's range
 * writes it: a sum of 0 (a row of -inf) gives zeros, or NaN unguarded. */
static void softmax_double(float *y, const float *x, int n, int step, const judge_changes *ch)
{
    double total = 0.0;
    for (int j = 0; j < n; j++) total += exp((double)x[j * step]);
    for (int j = 0; j < n; j++)
        y[j * step] = total == 0.0 && !ch->empty ? 0.0f : (float)(exp((double)x[j * step]) / total);
}

/* Softmax of n values at x[0], x[step], ... into y likewise. */
static void softmax_line(float *y, const float *x, int n, int step, const judge_changes *ch, carried *c)
{
    if (ch->softmax == FORM_SOFTMAX_NO_MAX_DOUBLE) {
        softmax_double(y, x, n, step, ch);
        return;
    }
    int no_max = ch->softmax == FORM_SOFTMAX_NO_MAX;
    float max = ch->softmax == FORM_SOFTMAX_MAX_FROM_ZERO ? 0.0f : ch->max_scope ? c->max : -INFINITY;
    float sum = ch->sum_reset == FORM_SUM_RESET_NEVER ? c->sum : 0.0f;
    /* x * 1 is x: the same bits for every other knob */
    float r = form_exp_factor(ch) * (ch->softmax == FORM_SOFTMAX_SCALED_SQRT_N ? 1.0f / sqrtf((float)n) : 1.0f);
    for (int j = 0; j < n - (ch->softmax == FORM_SOFTMAX_MAX_SKIPS_LAST); j++)
        if (x[j * step] * r > max) max = x[j * step] * r;
    if (ch->softmax == FORM_SOFTMAX_MIN_SUBTRACTED) {   /* the least finite value; none: -inf, empty */
        float lo = INFINITY;
        for (int j = 0; j < n; j++)
            if (x[j * step] != -INFINITY && x[j * step] < lo) lo = x[j * step];
        max = lo == INFINITY ? -INFINITY : lo;
    }
    c->max = max;
    /* The correct code stops here for a row of -inf; code that never looks
     * at the max (no_max) or does not guard it (empty = nan) goes on to 0/0. */
    if (max == -INFINITY && ch->empty == FORM_EMPTY_UNIFORM) {
        for (int j = 0; j < n; j++) y[j * step] = 1.0f / (float)n;
        return;
    }
    int empty = max == -INFINITY && !no_max && !ch->empty;
    for (int j = 0; j < n; j++) {
        y[j * step] = empty ? 0.0f : expf(no_max ? x[j * step] : x[j * step] * r - max);
        if (ch->lanes && j % 32 >= 16) continue;   /* lanes 16..31 lost in the sum's tree reduction */
        sum += ch->softmax_sum == FORM_SOFTMAX_SUM_INT ? (float)(int)y[j * step] : y[j * step];
    }
    if (ch->online == FORM_ONLINE_UNGUARDED) {
        /* Rescaled as it should be, but -inf - -inf is NaN: a leading -inf
         * makes the sum NaN for good. */
        float m = -INFINITY;
        sum = 0.0f;
        for (int j = 0; j < n; j++) {
            float v = x[j * step], m2 = v > m ? v : m;
            sum = sum * expf(m - m2) + expf(v - m2);
            m = m2;
        }
    }
    if (ch->online == FORM_ONLINE_NO_RESCALE || ch->online == FORM_ONLINE_NO_RESCALE_OLD_MAX) {
        /* One pass for max and sum, the sum never rescaled when the max
         * grows: each term is exp(x_j - the max so far), with x_j in it or
         * (old_max) before it, the first term then 1. */
        int old = ch->online == FORM_ONLINE_NO_RESCALE_OLD_MAX;
        float m = -INFINITY;
        sum = 0.0f;
        for (int j = 0; j < n; j++) {
            float v = x[j * step];
            if (v == -INFINITY) continue;
            if (!old && v > m) m = v;
            sum += m == -INFINITY ? 1.0f : expf(v - m);
            if (v > m) m = v;
        }
    }
    if (!empty) c->sum = sum;
    for (int j = 0; j < n && !empty; j++) y[j * step] /= sum;
}

static judge_status simulate(void *const *outs, const judge_args *a, const judge_changes *ch,
                             int variant)
{
    (void)variant;
    int rows = a->ints[PROWS], n = a->ints[PN];
    float *y = outs[OUT];
    const float *x = a->buf[X];
    carried c = { -INFINITY, 0.0f };
    if (ch->max_scope == FORM_MAX_SCOPE_GLOBAL)
        for (size_t i = 0; i < (size_t)rows * n; i++) c.max = x[i] > c.max ? x[i] : c.max;
    if (ch->softmax == FORM_SOFTMAX_WRONG_AXIS)
        for (int j = 0; j < n; j++) softmax_line(y + j, x + j, rows, n, ch, &c);
    else if (ch->softmax == FORM_SOFTMAX_COLUMN_MAJOR)
        for (int r = 0; r < rows; r++) softmax_line(y + r, x + r, n, rows, ch, &c);
    else
        for (int r = 0; r < rows; r++) softmax_line(y + (size_t)r * n, x + (size_t)r * n, n, 1, ch, &c);
    return JUDGE_OK;
}

static void coords(char *buf, size_t n, const judge_args *a, int p, size_t i, judge_lang lang)
{
    (void)p;
    size_t cols = (size_t)a->ints[PN];
    buf[0] = 0;
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_ROW, (int)(i / cols));
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_COL, (int)(i % cols));
}

const judge_ops judge_softmax_ops = {
    "stable-softmax", param_names, N_PARAMS, make_inputs, reference, simulate, coords, NULL, NULL,
};
