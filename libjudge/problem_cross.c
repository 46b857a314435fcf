/* problem_cross.c: exercise 54, cross-attention with an encoder padding mask, beyond its data in
 * problems/54-cross-attention: how its hidden inputs are made and its reference (the
 * core's att_cross_ref). Its mistakes, mask probe and coordinates are data
 * (problem.json), judged through the shared attention form (form.c). */
#include <math.h>
#include <stdlib.h>
#include "att.h"
#include "judge.h"

enum { OUT, Q, K, V, MASK, PB, PH, PT, PS, PD, N_PARAMS };

static const char *const param_names[N_PARAMS] = {
    "out", "q", "k", "v", "enc_mask", "B", "H", "T", "S", "D",
};

/* Masks: "right" and "left" pad (b + 1) * S / (B + 2) encoder tokens of
 * sequence b; "random" pads every encoder token of sequence 0 (an empty
 * encoder: its queries see nothing) and about a quarter of the others. The
 * case's scale multiplies q, for scores that overflow expf(). */
static void make_inputs(judge_args *a, const judge_case *c, uint64_t seed, int case_index)
{
    uint64_t stream = (uint64_t)case_index << 8;
    att_fill_uniform(a->buf[Q], a->len[Q], seed, stream + Q, 2.0f * c->scale);
    att_fill_uniform(a->buf[K], a->len[K], seed, stream + K, 2.0f);
    if (c->negative) {
        judge_sign(a->buf[Q], a->len[Q], -1);
        judge_sign(a->buf[K], a->len[K], 1);
    }
    att_fill_uniform(a->buf[V], a->len[V], seed, stream + V, 1.0f);
    if (a->buf[MASK])
        judge_fill_mask(a->buf[MASK], a->ints[PB], a->ints[PS], c->mask, seed, stream + MASK, 1);
}

static judge_status reference(void *const *outs, const judge_args *a)
{
    float *scratch = malloc(sizeof(float) * (size_t)a->ints[PS]);
    if (!scratch) return JUDGE_ENOMEM;
    att_status st = att_cross_ref(outs[OUT], a->buf[Q], a->buf[K], a->buf[V], a->buf[MASK],
                                  a->ints[PB], a->ints[PH], a->ints[PT], a->ints[PS],
                                  a->ints[PD], scratch);
    free(scratch);
    return st == ATT_OK ? JUDGE_OK : JUDGE_EREFERENCE;
}

const judge_ops judge_cross_ops = {
    "cross-attention", param_names, N_PARAMS, make_inputs, reference, NULL, NULL, NULL, NULL,
};
