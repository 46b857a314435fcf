/* problem_heads.c: what the judge knows about exercise 46, heads split and
 * merge, beyond its data in problems/46-heads-split-merge: its inputs, its
 * reference (att_split_heads_ref and att_merge_heads_ref) and the classic
 * mistakes it can name. No probe: nothing here attends. */
#include <stdio.h>
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

static void reference(void *const *outs, const judge_args *a)
{
    int B = a->ints[PB], T = a->ints[PT], H = a->ints[PH], D = a->ints[PD];
    att_split_heads_ref(outs[HEADS], a->buf[X], B, T, H, D);
    att_merge_heads_ref(outs[MERGED], a->buf[Y], B, T, H, D);
}

/* ---- the classic mistakes, simulated: one loop nest with a flag for each,
 * the judge's model of wrong code (not a reference) ---- */
enum { NO_TRANSPOSE = 1, STRIDE = 2, MERGE_AS_SPLIT = 4, NO_BATCH = 8 };

static void split_merge_with(void *const *outs, const judge_args *a, int f)
{
    int B = a->ints[PB], T = a->ints[PT], H = a->ints[PH], D = a->ints[PD];
    float *heads = outs[HEADS], *merged = outs[MERGED];
    const float *x = a->buf[X], *y = a->buf[Y];
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++)
                for (int c = 0; c < D; c++) {
                    size_t bi = f & NO_BATCH ? 0 : (size_t)b;   /* the input's batch */
                    size_t split = ((size_t)b * H + h) * T + t, whole = ((size_t)b * T + t) * H + h;
                    size_t in_split = (bi * H + h) * T + t, in_whole = (bi * T + t) * H + h;
                    /* Feature of (h, c) in a [.., H*D] row: block h*D + c, or interleaved. */
                    size_t feat = f & STRIDE ? (size_t)c * H + h : (size_t)h * D + c;
                    size_t in_feat = f & STRIDE ? feat : (size_t)h * D + c;
                    if (f & NO_TRANSPOSE) {          /* a view: the bytes stay put */
                        heads[split * D + c] = x[in_split * D + c];
                        merged[split * D + c] = y[in_split * D + c];
                        continue;
                    }
                    heads[split * D + c] = x[(in_whole - h) * D + in_feat];
                    if (f & MERGE_AS_SPLIT)          /* y read as if it were [B, T, H, D] */
                        merged[split * D + c] = y[in_whole * D + c];
                    else
                        merged[(whole - h) * D + feat] = y[in_split * D + c];
                }
}

#define MISTAKE(fn, flags) \
    static void fn(void *const *outs, const judge_args *a) { split_merge_with(outs, a, flags); }
MISTAKE(view_without_transpose, NO_TRANSPOSE)
MISTAKE(head_stride, STRIDE)
MISTAKE(merge_as_split, MERGE_AS_SPLIT)
MISTAKE(batch_ignored, NO_BATCH)

static const judge_mistake mistakes[] = {
    { "view_without_transpose", "a reshape without the transpose: the bytes of x are copied as they are",
      "[B, T, d] viewed as [B, T, H, D] still needs transpose(1, 2): heads[b][h][t][c] = x[b][t][h*D + c]",
      view_without_transpose },
    { "head_stride", "the heads are split with the wrong stride (every H-th feature)",
      "head h owns the contiguous features h*D .. h*D + D - 1, not h, h + H, h + 2H, ...", head_stride },
    { "merge_as_split", "the merge repeats the split's indexing instead of inverting it",
      "merge reads y[b][h][t][c] and writes it to merged[b][t][h*D + c]", merge_as_split },
    { "batch_ignored", "the batch offset is missing: every batch reads batch 0",
      "include b in the input index: x[((b*T + t)*H + h)*D + c], y[((b*H + h)*T + t)*D + c]",
      batch_ignored },
};

static void coords(char *buf, size_t n, const judge_args *a, int p, size_t i)
{
    size_t T = (size_t)a->ints[PT], H = (size_t)a->ints[PH], D = (size_t)a->ints[PD];
    size_t c = i % D, r = i / D;
    if (p == HEADS)
        snprintf(buf, n, "b=%zu, head %zu, t=%zu, dim %zu", r / T / H, r / T % H, r % T, c);
    else
        snprintf(buf, n, "b=%zu, t=%zu, feature %zu (head %zu, dim %zu)", r / H / T, r / H % T,
                 r % H * D + c, r % H, c);
}

const judge_ops judge_heads_ops = {
    "heads-split-merge", param_names, N_PARAMS, make_inputs, reference, mistakes,
    sizeof mistakes / sizeof mistakes[0], coords, NULL, NULL, NULL,
};
