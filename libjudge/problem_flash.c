/* problem_flash.c: exercise 55, flashattention forward, beyond its data in
 * problems/55-flash-attention: how its hidden inputs are made and its reference (the
 * core's att_attn_lse_ref). Its mistakes, mask probe and coordinates are data
 * (problem.json), judged through the shared attention form (form.c). The tiling itself is enforced by memory, not inspected: the learner
 * gets a small scratch buffer, and problem.json's memory limit and MLE hint
 * stop a solution that holds the T x S scores. */
#include <math.h>
#include <stdlib.h>
#include "att.h"
#include "judge.h"

enum { OUT, LSE, Q, K, V, SCRATCH, PB, PH, PT, PS, PD, PCAUSAL, PN, N_PARAMS };

static const char *const param_names[N_PARAMS] = {
    "out", "lse", "q", "k", "v", "scratch", "B", "H", "T", "S", "D", "causal", "n_scratch",
};

/* q ~ U[-2, 2) times the case's scale (scores that overflow expf() without
 * the max), k ~ U[-2, 2), v ~ U[-1, 1). */
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
}

static judge_status reference(void *const *outs, const judge_args *a)
{
    float *scratch = malloc(sizeof(float) * (size_t)a->ints[PS]);
    if (!scratch) return JUDGE_ENOMEM;
    att_status st = att_attn_lse_ref(outs[OUT], outs[LSE], a->buf[Q], a->buf[K], a->buf[V],
                                     a->ints[PB], a->ints[PH], a->ints[PT], a->ints[PS],
                                     a->ints[PD], a->ints[PCAUSAL], scratch);
    free(scratch);
    return st == ATT_OK ? JUDGE_OK : JUDGE_EREFERENCE;
}

const judge_ops judge_flash_ops = {
    "flash-attention", param_names, N_PARAMS, make_inputs, reference, NULL, NULL, NULL, NULL,
};
