/* problem_alibi.c: exercise 63, ALiBi and Gemma-2's logit soft-capping,
 * beyond its data in problems/63-alibi-softcap: how its hidden inputs are
 * made and its reference (the core's att_alibi_softcap_ref). Its mistakes,
 * mask probe and coordinates are data (problem.json), judged through the
 * shared attention form (form.c). */
#include <stdlib.h>
#include "att.h"
#include "judge.h"

enum { OUT, Q, K, V, PB, PH, PT, PS, PD, PCAP, PALIBI, N_PARAMS };

static const char *const param_names[N_PARAMS] = {
    "out", "q", "k", "v", "B", "H", "T", "S", "D", "cap", "alibi",
};

/* Scores of standard deviation 2, so that a small cap bends them and an
 * ALiBi bias of slope 1/2 competes with them; the case's scale multiplies
 * q (scores far past a cap of 50, or past expf's range without one). */
static void make_inputs(judge_args *a, const judge_case *c, uint64_t seed, int case_index)
{
    uint64_t stream = (uint64_t)case_index << 8;
    att_fill_uniform(a->buf[Q], a->len[Q], seed, stream + Q, 3.4641016f * c->scale);
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
    att_status st = att_alibi_softcap_ref(outs[OUT], a->buf[Q], a->buf[K], a->buf[V], a->ints[PB],
                                          a->ints[PH], a->ints[PT], a->ints[PS], a->ints[PD],
                                          (float)a->ints[PCAP], a->ints[PALIBI], scratch);
    free(scratch);
    return st == ATT_OK ? JUDGE_OK : JUDGE_EREFERENCE;
}

const judge_ops judge_alibi_ops = {
    "alibi-softcap", param_names, N_PARAMS, make_inputs, reference, NULL, NULL, NULL, NULL,
};
