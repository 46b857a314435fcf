/* problem_heads.c: what the judge knows about exercise 46, heads split and
 * merge, beyond its data in problems/46-heads-split-merge: its inputs, its
 * reference (att_split_heads_ref and att_merge_heads_ref) and the classic
 * mistakes it can name. No probe: nothing here attends. */
#include "att.h"
#include "judge.h"

enum { HEADS, MERGED, X, Y, PB, PT, PH, PD, N_PARAMS };

static const char *const param_names[N_PARAMS] = {
    "heads", "merged", "x", "y", "B", "T", "H", "D",
};

static void make_inputs(judge_args *a, const judge_case *c, uint64_t seed, int case_index)
{
    uint64_t stream = (uint64_t)case_index << 8;
    att_fill_uniform(a->buf[X], a->len[X], seed, stream + X, c->scale);
    att_fill_uniform(a->buf[Y], a->len[Y], seed, stream + Y, c->scale);
}

static judge_status reference(void *const *outs, const judge_args *a)
{
    int B = a->ints[PB], T = a->ints[PT], H = a->ints[PH], D = a->ints[PD];
    att_split_heads_ref(outs[HEADS], a->buf[X], B, T, H, D);
    att_merge_heads_ref(outs[MERGED], a->buf[Y], B, T, H, D);
    return JUDGE_OK;
}

/* ---- what mistaken code returns: one loop nest with the knobs of the
 * problem's mistakes (problem.json), the judge's model of wrong code (not a
 * reference) ---- */
static judge_status simulate(void *const *outs, const judge_args *a, const judge_changes *ch,
                             int variant)
{
    (void)variant;
    int B = a->ints[PB], T = a->ints[PT], H = a->ints[PH], D = a->ints[PD];
    int strided = ch->split == FORM_SPLIT_STRIDED, view = ch->split == FORM_SPLIT_NO_TRANSPOSE;
    float *heads = outs[HEADS], *merged = outs[MERGED];
    const float *x = a->buf[X], *y = a->buf[Y];
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++)
                for (int c = 0; c < D; c++) {
                    size_t bi = ch->batch == FORM_BATCH_IGNORED ? 0 : (size_t)b;   /* the input's batch */
                    size_t split = ((size_t)b * H + h) * T + t, whole = ((size_t)b * T + t) * H + h;
                    size_t in_split = (bi * H + h) * T + t, in_whole = (bi * T + t) * H + h;
                    /* Feature of (h, c) in a [.., H*D] row: block h*D + c, or interleaved. */
                    size_t feat = strided ? (size_t)c * H + h : (size_t)h * D + c;
                    size_t in_feat = strided ? feat : (size_t)h * D + c;
                    size_t out_feat = ch->merge == FORM_MERGE_STRIDED ? (size_t)c * H + h : feat;
                    if (ch->head_rows == FORM_HEAD_ROWS_DIM_MAJOR) {   /* a head [D, T]: (c, t) at c*T + t */
                        size_t at = (((size_t)b * H + h) * D + c) * T + t, in_at = ((bi * H + h) * D + c) * T + t;
                        heads[at] = x[(in_whole - h) * D + in_feat];
                        merged[(whole - h) * D + feat] = y[in_at];
                        continue;
                    }
                    if (view) {                      /* a view: the bytes stay put */
                        heads[split * D + c] = x[in_split * D + c];
                        merged[split * D + c] = y[in_split * D + c];
                        continue;
                    }
                    if (ch->split == FORM_SPLIT_AS_MERGE)   /* the inverse permutation */
                        heads[whole * D + c] = x[in_split * D + c];
                    else
                        heads[split * D + c] = x[(in_whole - h) * D + in_feat];
                    if (ch->merge == FORM_MERGE_FROM_X)   /* merge(split(x)) */
                        merged[(whole - h) * D + feat] = x[(in_whole - h) * D + in_feat];
                    else if (ch->merge == FORM_MERGE_AS_SPLIT)   /* y read as if it were [B, T, H, D] */
                        merged[split * D + c] = y[in_whole * D + c];
                    else if (ch->merge == FORM_MERGE_NO_TRANSPOSE)
                        merged[split * D + c] = y[in_split * D + c];
                    else
                        merged[(whole - h) * D + out_feat] = y[in_split * D + c];
                }
    return JUDGE_OK;
}

static void coords(char *buf, size_t n, const judge_args *a, int p, size_t i, judge_lang lang)
{
    int T = a->ints[PT], H = a->ints[PH], D = a->ints[PD];
    int c = (int)(i % (size_t)D), r = (int)(i / (size_t)D);
    buf[0] = 0;
    if (p == HEADS) {   /* [B, H, T, D] */
        judge_coord(buf, n, lang, JUDGE_MSG_AXIS_B, r / T / H);
        judge_coord(buf, n, lang, JUDGE_MSG_AXIS_H, r / T % H);
        judge_coord(buf, n, lang, JUDGE_MSG_AXIS_T, r % T);
        judge_coord(buf, n, lang, JUDGE_MSG_AXIS_C, c);
    } else {            /* [B, T, H, D] */
        judge_coord(buf, n, lang, JUDGE_MSG_AXIS_B, r / H / T);
        judge_coord(buf, n, lang, JUDGE_MSG_AXIS_T, r / H % T);
        judge_coord(buf, n, lang, JUDGE_MSG_AXIS_F, r % H * D + c, r % H, c);
    }
}

const judge_ops judge_heads_ops = {
    "heads-split-merge", param_names, N_PARAMS, make_inputs, reference, simulate, coords, NULL,
    NULL,
};
