/* problem_merge.c: what the judge knows about exercise 60, the split-KV
 * merge (Flash-Decoding), beyond its data in problems/60-split-kv-merge:
 * hidden inputs made from real splits of real attention (so every o_part
 * and lse_part agree with one another), the reference (the core's
 * att_merge_lse_ref), and the classic merge mistakes it can name. Not an
 * attention form: there are no queries and keys to probe, only rows of
 * partial results. The property (merging equals unsplit attention) is
 * tested on the reference in tests/ref_merge_test.c. */
#include <float.h>
#include <math.h>
#include <string.h>
#include "att.h"
#include "judge.h"

enum { OUT, LSE, OPART, LPART, PP, PB, PH, PD, N_PARAMS };

static const char *const param_names[N_PARAMS] = {
    "out", "lse", "o_part", "lse_part", "P", "B", "H", "D",
};

/* The most keys a split holds, and the widest head the cases use: one
 * split's keys and values fit on the stack. */
enum { MAX_SPLIT_KEYS = 9, MAX_D = 32 };
/* The most splits the simulation takes (the cases' P is at most 16). */
enum { MAX_P = 64 };

/* Is split p of batch b empty? With the case's mask "random" the batches
 * take turns: batch b % 5 = 0 has its first split empty, 1 its middle one
 * (P >= 3), 2 its last one, 3 every split, 4 each split with chance 1/3;
 * "none": every split has keys. With P = 1 only "every split" empties it. */
static int empty_split(const judge_case *c, uint64_t seed, uint64_t stream, int b, int p, int P)
{
    if (strcmp(c->mask, "random")) return 0;
    switch (b % 5) {
    case 0: return P >= 2 && p == 0;
    case 1: return P >= 3 && p == P / 2;
    case 2: return P >= 2 && p == P - 1;
    case 3: return 1;
    default: return att_rng_u64(seed, stream, (uint64_t)b * P + p) % 3 == 0;
    }
}

/* Each (batch, head) row is one decode query attending to P splits of its
 * keys, each split on its own with att_attn_lse_ref, as a Flash-Decoding
 * kernel's first pass does; an empty split writes zeros and -inf, as that
 * kernel does. q ~ U[-2, 2) times the case's scale (log-sum-exps past 709,
 * where exp() overflows even in double), k ~ U[-2, 2), v ~ U[-1, 1). */
static void make_inputs(judge_args *a, const judge_case *c, uint64_t seed, int case_index)
{
    int P = a->ints[PP], B = a->ints[PB], H = a->ints[PH], D = a->ints[PD];
    size_t rows = (size_t)B * H;
    uint64_t stream = (uint64_t)case_index << 32;
    float *o_part = a->buf[OPART], *lse_part = a->buf[LPART];
    float q[MAX_D], k[MAX_SPLIT_KEYS * MAX_D], v[MAX_SPLIT_KEYS * MAX_D], scratch[MAX_SPLIT_KEYS];
    if (D > MAX_D) return;   /* no case is this wide; the judge would see zeros */
    for (size_t r = 0; r < rows; r++) {
        uint64_t row = stream + (r << 12);
        att_fill_uniform(q, (size_t)D, seed, row, 2.0f * c->scale);
        for (int p = 0; p < P; p++) {
            float *o = o_part + ((size_t)p * rows + r) * D, *l = lse_part + (size_t)p * rows + r;
            if (empty_split(c, seed, stream + 1, (int)(r / (size_t)H), p, P)) {
                memset(o, 0, sizeof(float) * (size_t)D);
                *l = -INFINITY;
                continue;
            }
            int n = 1 + (int)(att_rng_u64(seed, row + 2, (uint64_t)p) % MAX_SPLIT_KEYS);
            att_fill_uniform(k, (size_t)n * D, seed, row + 16 + 2 * (uint64_t)p, 2.0f);
            att_fill_uniform(v, (size_t)n * D, seed, row + 17 + 2 * (uint64_t)p, 1.0f);

            att_attn_lse_ref(o, l, q, k, v, 1, 1, 1, n, D, 0, scratch);
            /* Every score 200 lower (the same split, shifted): each lse_p is
             * far below 0, where expf underflows and a max begun at 0 shows. */
            if (c->negative) *l -= 200.0f;
        }
    }
}

static judge_status reference(void *const *outs, const judge_args *a)
{
    att_status st = att_merge_lse_ref(outs[OUT], outs[LSE], a->buf[OPART], a->buf[LPART],
                                      a->ints[PP], a->ints[PB], a->ints[PH], a->ints[PD]);
    return st == ATT_OK ? JUDGE_OK : JUDGE_EREFERENCE;
}

/* ---- what mistaken code returns: a merge in float as learners write it,
 * two passes (the max, then the weights), or online where the mistake is an
 * online one, with the knobs of the problem's mistakes (problem.json); the
 * judge's model of wrong code, not a reference ---- */

/* The online merge, its rescales as the online knob has them. Without a
 * guard (nan_leading), while every split so far is empty the rescale is
 * exp(-inf - -inf), NaN, and it stays NaN; guarded, an empty split is
 * skipped and a row of them gives zeros and -inf. */
static void merge_online(float *o, float *lse, const float *x, const float *const *op, int P, int D,
                         const judge_changes *ch)
{
    int guarded = ch->merge_empty != FORM_MERGE_EMPTY_NAN_LEADING;
    int rescale_l = ch->online != FORM_ONLINE_NO_RESCALE && ch->online != FORM_ONLINE_NO_RESCALE_SUM;
    int rescale_o = ch->online != FORM_ONLINE_NO_RESCALE && ch->online != FORM_ONLINE_NO_RESCALE_ACC;
    float m = -INFINITY, l = 0.0f;
    for (int c = 0; c < D; c++) o[c] = 0.0f;
    for (int p = 0; p < P; p++) {
        if (guarded && x[p] == -INFINITY) continue;
        float m2 = x[p] > m ? x[p] : m, corr = expf(m - m2), w = expf(x[p] - m2);
        l = (rescale_l ? l * corr : l) + w;
        for (int c = 0; c < D; c++) o[c] = (rescale_o ? o[c] * corr : o[c]) + w * op[p][c];
        m = m2;
    }
    if (guarded && l == 0.0f) {
        *lse = -INFINITY;
        return;
    }
    for (int c = 0; c < D; c++) o[c] /= l;
    *lse = m + logf(l);
}

/* The online merge that keeps the lse itself, l = max + log1p(exp(min -
 * max)), unguarded: an empty split while the lse is still -inf makes it
 * NaN, and the output with it for good, but fmaxf and fminf drop a NaN, so
 * the next split with keys gives the lse a finite, wrong value again. */
static void merge_online_log1p(float *o, float *lse, const float *x, const float *const *op, int P, int D)
{
    float run = -INFINITY;
    for (int c = 0; c < D; c++) o[c] = 0.0f;
    for (int p = 0; p < P; p++) {
        float mx = fmaxf(run, x[p]), mn = fminf(run, x[p]), nl = mx + log1pf(expf(mn - mx));
        float a = expf(run - nl), w = expf(x[p] - nl);
        for (int c = 0; c < D; c++) o[c] = a * o[c] + w * op[p][c];
        run = nl;
    }
    *lse = run;
}

/* A merge in double, the max taken or (no_max) not: exp() of a raw lse
 * stays finite and nonzero from -745 to 709, where float's ends at -88. */
static void merge_double(float *o, float *lse, const float *x, const float *const *op, int P, int D, int no_max)
{
    double m = no_max ? 0.0 : -INFINITY, sum = 0.0, w[MAX_P];
    for (int p = 0; p < P && !no_max; p++)
        if (x[p] > m) m = x[p];
    if (m == -INFINITY) {
        for (int c = 0; c < D; c++) o[c] = 0.0f;
        *lse = -INFINITY;
        return;
    }
    for (int p = 0; p < P; p++) sum += w[p] = exp((double)x[p] - m);
    *lse = (float)(m + log(sum));
    for (int c = 0; c < D; c++) {
        double acc = 0.0;
        for (int p = 0; p < P; p++) acc += w[p] / sum * op[p][c];
        o[c] = (float)acc;
    }
}

static void merge_row(float *o, float *lse, const float *x, const float *const *op, int P, int D,
                      const judge_changes *ch)
{
    if (ch->merge_empty == FORM_MERGE_EMPTY_NAN_LEADING || ch->online) {
        merge_online(o, lse, x, op, P, D, ch);
        return;
    }
    if (ch->merge_empty == FORM_MERGE_EMPTY_NAN_LEADING_LOG1P) {
        merge_online_log1p(o, lse, x, op, P, D);
        return;
    }
    if (ch->merge_exp == FORM_MERGE_EXP_DOUBLE) {
        merge_double(o, lse, x, op, P, D, ch->softmax == FORM_SOFTMAX_NO_MAX);
        return;
    }
    int no_max = ch->softmax == FORM_SOFTMAX_NO_MAX, seen = 0, best = 0;
    int last = P - (ch->softmax == FORM_SOFTMAX_MAX_SKIPS_LAST);   /* the splits the max looks at */
    float m = no_max ? 0.0f : -INFINITY, sum = 0.0f, sum_lse = 0.0f, seen_lse = 0.0f;
    for (int p = 0; p < P; p++) {
        seen += x[p] != -INFINITY;
        if (!no_max && p < last && x[p] > m) m = x[p], best = p;
        sum_lse += x[p];
        if (x[p] != -INFINITY) seen_lse += x[p];
    }
    /* The right code stops here for a row with no keys; code without the max
     * never sees it, and code without the guard goes on to 0/0. */
    if (m == -INFINITY && ch->merge_empty != FORM_MERGE_EMPTY_NAN_ALL) {
        for (int c = 0; c < D; c++) o[c] = 0.0f;
        *lse = ch->merge_empty == FORM_MERGE_EMPTY_LSE_ZERO ? 0.0f
             : ch->merge_empty == FORM_MERGE_EMPTY_LSE_LOWEST ? -FLT_MAX : -INFINITY;
        return;
    }
    int base2 = ch->merge_weights == FORM_MERGE_WEIGHTS_EXP2;
    float w[MAX_P];
    for (int p = 0; p < P; p++) {
        w[p] = base2 ? exp2f(x[p] - m) : expf(x[p] - m);
        sum += w[p];
    }
    float L;
    switch (ch->merge_lse) {
    case FORM_MERGE_LSE_MAX: L = m; break;
    case FORM_MERGE_LSE_SUM: L = sum_lse; break;
    case FORM_MERGE_LSE_SUM_SEEN: L = seen_lse; break;
    case FORM_MERGE_LSE_LOG2: L = m + log2f(sum); break;
    case FORM_MERGE_LSE_COUNT_SEEN: L = m + logf((float)seen); break;
    case FORM_MERGE_LSE_NO_MAX: L = logf(sum); break;
    default: L = m + logf(sum); break;
    }
    *lse = L;
    for (int c = 0; c < D; c++) {
        float acc = 0.0f;
        for (int p = 0; p < P; p++) {
            switch (ch->merge_weights) {
            case FORM_MERGE_WEIGHTS_AVERAGE: acc += op[p][c] / (float)P; break;
            case FORM_MERGE_WEIGHTS_AVERAGE_SEEN:
                if (x[p] != -INFINITY) acc += op[p][c] / (float)seen;
                break;
            case FORM_MERGE_WEIGHTS_FROM_LSE: acc += expf(x[p] - L) * op[p][c]; break;
            case FORM_MERGE_WEIGHTS_ARGMAX: acc += p == best ? op[p][c] : 0.0f; break;
            default: acc += (ch->normalize == FORM_NORMALIZE_NONE ? w[p] : w[p] / sum) * op[p][c]; break;
            }
        }
        o[c] = acc;
    }
}

static judge_status simulate(void *const *outs, const judge_args *a, const judge_changes *ch,
                             int variant)
{
    (void)variant;
    int P = a->ints[PP], D = a->ints[PD];
    size_t rows = (size_t)a->ints[PB] * a->ints[PH];
    const float *o_part = a->buf[OPART], *lse_part = a->buf[LPART];
    float *out = outs[OUT], *lse = outs[LSE];
    float x[MAX_P];
    const float *op[MAX_P];
    if (P > MAX_P) return JUDGE_EBADCASE;
    for (size_t r = 0; r < rows; r++) {
        for (int p = 0; p < P; p++) {
            /* Split p of row r, or the element a split-innermost reading takes. */
            size_t at = (size_t)p * rows + r, inner = r * P + (size_t)p, head0 = at - r % (size_t)a->ints[PH];
            size_t no_b = (size_t)p * a->ints[PH] + r;
            x[p] = lse_part[ch->merge_layout == FORM_MERGE_LAYOUT_LSE_INNER ? inner
                            : ch->merge_layout == FORM_MERGE_LAYOUT_LSE_HEAD_ZERO ? head0
                            : ch->merge_layout == FORM_MERGE_LAYOUT_LSE_SPLIT_NO_B ? no_b : at];
            if (ch->merge_empty == FORM_MERGE_EMPTY_AS_ZERO && x[p] == -INFINITY) x[p] = 0.0f;
            op[p] = ch->merge_layout == FORM_MERGE_LAYOUT_O_SPLIT_NO_D ? o_part + (size_t)p * rows + r * D
                  : o_part + (ch->merge_layout == FORM_MERGE_LAYOUT_O_INNER ? inner
                              : ch->merge_layout == FORM_MERGE_LAYOUT_O_HEAD_ZERO ? head0
                              : ch->merge_layout == FORM_MERGE_LAYOUT_O_SPLIT_NO_B ? no_b : at) * D;
        }
        merge_row(out + r * D, lse + r, x, op, P, D, ch);
    }
    return JUDGE_OK;
}

static void coords(char *buf, size_t n, const judge_args *a, int p, size_t i, judge_lang lang)
{
    size_t H = (size_t)a->ints[PH], D = (size_t)a->ints[PD];
    size_t row = p == LSE ? i : i / D;   /* lse [B, H]; out [B, H, D] */
    buf[0] = 0;
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_B, (int)(row / H));
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_H, (int)(row % H));
    if (p != LSE) judge_coord(buf, n, lang, JUDGE_MSG_AXIS_C, (int)(i % D));
}

const judge_ops judge_merge_ops = {
    "split-kv-merge", param_names, N_PARAMS, make_inputs, reference, simulate, coords, NULL, NULL,
};
