/* problem_softmax.c: what the judge knows about exercise 45, stable softmax,
 * beyond its data in problems/45-stable-softmax: its hidden inputs (with rows
 * of -inf and scores that overflow expf), its reference (the core's
 * att_softmax_ref), and the classic mistakes it can name. No probe: a softmax
 * row has no queries and keys to picture. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "att.h"
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

static void reference(void *const *outs, const judge_args *a)
{
    att_softmax_ref(outs[OUT], a->buf[X], a->ints[PROWS], a->ints[PN]);
}

/* ---- the classic mistakes, simulated: one plain float softmax with a flag
 * for each, the judge's model of wrong code (not a reference) ---- */
enum { NO_MAX = 1, MAX_ZERO = 2, NAN_EMPTY = 4, COLUMNS = 8 };

/* Softmax of n values at x[0], x[step], ... into y likewise. */
static void softmax_line(float *y, const float *x, int n, int step, int f)
{
    float max = f & MAX_ZERO ? 0.0f : -INFINITY, sum = 0.0f;
    for (int j = 0; j < n; j++)
        if (x[j * step] > max) max = x[j * step];
    /* The correct code stops here for a row of -inf; code that never looks
     * at the max (NO_MAX) or does not guard it (NAN_EMPTY) goes on to 0/0. */
    int empty = max == -INFINITY && !(f & (NAN_EMPTY | NO_MAX));
    for (int j = 0; j < n; j++) {
        y[j * step] = empty ? 0.0f : expf(f & NO_MAX ? x[j * step] : x[j * step] - max);
        sum += y[j * step];
    }
    for (int j = 0; j < n && !empty; j++) y[j * step] /= sum;
}

static void softmax_with(void *const *outs, const judge_args *a, int f)
{
    int rows = a->ints[PROWS], n = a->ints[PN];
    float *y = outs[OUT];
    const float *x = a->buf[X];
    if (f & COLUMNS)
        for (int j = 0; j < n; j++) softmax_line(y + j, x + j, rows, n, f);
    else
        for (int r = 0; r < rows; r++) softmax_line(y + (size_t)r * n, x + (size_t)r * n, n, 1, f);
}

#define MISTAKE(fn, flags) \
    static void fn(void *const *outs, const judge_args *a) { softmax_with(outs, a, flags); }
MISTAKE(no_max_subtraction, NO_MAX)
MISTAKE(max_starts_at_zero, MAX_ZERO)
MISTAKE(nan_empty_row, NAN_EMPTY)
MISTAKE(wrong_axis, COLUMNS)

static const judge_mistake mistakes[] = {
    { "no_max_subtraction", "exp() of the raw values: the softmax overflows (or underflows) without subtracting the max",
      "subtract the row's maximum before exp(); softmax(x - c) = softmax(x) for any constant c",
      no_max_subtraction },
    { "max_starts_at_zero", "the running maximum starts at 0 instead of -INFINITY",
      "a row whose values are all far below 0 then underflows to 0/0; start the max at -INFINITY",
      max_starts_at_zero },
    { "nan_empty_row", "a row of all -inf gives NaN instead of zeros",
      "when the row's max is -INFINITY, x - max is NaN: write zeros for that row", nan_empty_row },
    { "wrong_axis", "the softmax runs over the columns instead of over each row",
      "normalise each row x[r*n .. r*n + n - 1] (dim = -1), not each column", wrong_axis },
};

static void coords(char *buf, size_t n, const judge_args *a, int p, size_t i)
{
    (void)p;
    size_t cols = (size_t)a->ints[PN];
    snprintf(buf, n, "row %zu, column %zu", i / cols, i % cols);
}

const judge_ops judge_softmax_ops = {
    "stable-softmax", param_names, N_PARAMS, make_inputs, reference, mistakes,
    sizeof mistakes / sizeof mistakes[0], coords, NULL, NULL, NULL,
};
