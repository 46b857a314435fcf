/* problem_gqa.c: exercise 51, grouped-query attention, beyond its data in
 * problems/51-gqa: how its hidden inputs are made and its reference (the
 * core's att_gqa_ref). Its mistakes, mask probe and coordinates are data
 * (problem.json), judged through the shared attention form (form.c). */
#include <stdlib.h>
#include "att.h"
#include "judge.h"

enum { OUT, Q, K, V, PB, PH, PHKV, PT, PS, PD, PCAUSAL, N_PARAMS };

static const char *const param_names[N_PARAMS] = {
    "out", "q", "k", "v", "B", "H", "Hkv", "T", "S", "D", "causal",
};

static void make_inputs(judge_args *a, const judge_case *c, uint64_t seed, int case_index)
{
    uint64_t stream = (uint64_t)case_index << 8;
    /* Unit-variance scores, as in exercise 47; the case's scale multiplies q. */
    att_fill_uniform(a->buf[Q], a->len[Q], seed, stream + Q, 1.7320508f * c->scale);
    att_fill_uniform(a->buf[K], a->len[K], seed, stream + K, 1.7320508f);
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
    att_status st = att_gqa_ref(outs[OUT], a->buf[Q], a->buf[K], a->buf[V], a->ints[PB],
                                a->ints[PH], a->ints[PHKV], a->ints[PT], a->ints[PS],
                                a->ints[PD], a->ints[PCAUSAL], scratch);
    free(scratch);
    return st == ATT_OK ? JUDGE_OK : JUDGE_EREFERENCE;   /* a case with H % Hkv != 0 */
}

const judge_ops judge_gqa_ops = {
    "gqa", param_names, N_PARAMS, make_inputs, reference, NULL, NULL, NULL, NULL,
};
