/* problem_sparse.c: what the judge knows about exercise 69 (top-k sparse
 * attention) beyond its data in problems/69-topk-attention: how its hidden
 * inputs are made, its reference (the core's att_topk_ref), the classic
 * mistakes of a top-k selection (simulated here: which keys a query keeps
 * depends on its scores, which the shared attention form's positional mask
 * cannot say), and the coordinates of an output. */
#include <math.h>
#include <stdlib.h>
#include "att.h"
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

static void make_inputs(judge_args *a, const judge_case *c, uint64_t seed, int case_index)
{
    uint64_t stream = (uint64_t)case_index << 8;
    fill_halves(a->buf[Q], a->len[Q], seed, stream + Q, c->scale);
    fill_halves(a->buf[K], a->len[K], seed, stream + K, 1.0f);
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
    return ch->topk_rank == FORM_TOPK_RANK_TIES_HIGH ? m > j : m < j;
}

/* Query i's row: scores s (T floats), the ranked values x and the kept flags
 * (T each), out_i (D floats). */
static void topk_row(const judge_changes *ch, const float *q, const float *k, const float *v, int T,
                     int D, int topk, int i, float *s, float *x, unsigned char *keep, float *out)
{
    float scale = 1.0f / sqrtf((float)D);
    int r = ch->topk_rank, n = ch->topk_count == FORM_TOPK_COUNT_MINUS_ONE ? topk - 1
                              : ch->topk_count == FORM_TOPK_COUNT_PLUS_ONE ? topk + 1 : topk;
    /* The candidates: the visible keys, or every key (the future with its
     * own score, or with the 0 of a zeroed score row). */
    int cands = r == FORM_TOPK_RANK_BEFORE_MASK || r == FORM_TOPK_RANK_MASKED_ZERO ? T : i + 1;
    for (int j = 0; j < T; j++) {
        float dot = 0.0f;
        for (int c = 0; c < D; c++) dot += q[(size_t)i * D + c] * k[(size_t)j * D + c];
        s[j] = dot * scale;
        x[j] = j > i && r == FORM_TOPK_RANK_MASKED_ZERO ? 0.0f : r == FORM_TOPK_RANK_ABS ? fabsf(s[j]) : s[j];
    }
    for (int j = 0; j <= i; j++) {
        int rank = 0;
        for (int m = 0; m < cands; m++) rank += m != j && outranks(ch, x, m, j);
        keep[j] = rank < n;
    }
    /* Without renormalising: the softmax over every visible key, the weights
     * of the keys not kept zeroed afterwards. */
    int all = ch->topk_renorm == FORM_TOPK_RENORM_NONE;
    float max = -INFINITY, sum = 0.0f;
    for (int j = 0; j <= i; j++)
        if ((all || keep[j]) && s[j] > max) max = s[j];
    for (int j = 0; j <= i; j++)
        if (all || keep[j]) sum += expf(s[j] - max);
    for (int c = 0; c < D; c++) {
        float acc = 0.0f;
        for (int j = 0; j <= i; j++)
            if (keep[j]) acc += expf(s[j] - max) * v[(size_t)j * D + c];
        out[c] = sum > 0.0f ? acc / sum : 0.0f;
    }
}

static judge_status simulate(void *const *outs, const judge_args *a, const judge_changes *ch,
                             int variant)
{
    (void)variant;
    int T = a->ints[PT], D = a->ints[PD];
    float *s = malloc(sizeof(float) * 2 * (size_t)T);
    unsigned char *keep = malloc((size_t)T);
    if (!s || !keep) {
        free(s);
        free(keep);
        return JUDGE_ENOMEM;
    }
    for (size_t bh = 0; bh < (size_t)a->ints[PB] * a->ints[PH]; bh++) {
        size_t o = bh * T * D;
        for (int i = 0; i < T; i++)
            topk_row(ch, (const float *)a->buf[Q] + o, (const float *)a->buf[K] + o,
                     (const float *)a->buf[V] + o, T, D, a->ints[PTOPK], i, s, s + T, keep,
                     (float *)outs[OUT] + o + (size_t)i * D);
    }
    free(s);
    free(keep);
    return JUDGE_OK;
}

/* out [B, H, T, D]: batch, head, query position, dim. */
static void coords(char *buf, size_t n, const judge_args *a, int p, size_t i, judge_lang lang)
{
    (void)p;
    int H = a->ints[PH], T = a->ints[PT], D = a->ints[PD];
    size_t row = i / (size_t)D;
    buf[0] = 0;
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_B, (int)(row / (size_t)T / (size_t)H));
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_H, (int)(row / (size_t)T % (size_t)H));
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_T, (int)(row % (size_t)T));
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_C, (int)(i % (size_t)D));
}

const judge_ops judge_topk_ops = {
    "topk-attention", param_names, N_PARAMS, make_inputs, reference, simulate, coords,
};
