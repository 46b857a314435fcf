/* problem_sink.c: exercise 53, attention sinks (streamingllm), beyond its data in
 * problems/53-attention-sinks: how its hidden inputs are made and its reference (the
 * core's att_sink_ref). Its mistakes, mask probe and coordinates are data
 * (problem.json), judged through the shared attention form (form.c). */
#include <math.h>
#include <stdlib.h>
#include "att.h"
#include "judge.h"

enum { OUT, Q, K, V, PB, PH, PT, PD, PSINK, PW, N_PARAMS };

static const char *const param_names[N_PARAMS] = {
    "out", "q", "k", "v", "B", "H", "T", "D", "n_sink", "window",
};

/* q, k ~ U[-2, 2), v ~ U[-1, 1): scores near unit size; the case's scale
 * multiplies q, for scores that overflow expf() without the max. */
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
    float *scratch = malloc(sizeof(float) * (size_t)a->ints[PT]);
    if (!scratch) return JUDGE_ENOMEM;
    att_status st = att_sink_ref(outs[OUT], a->buf[Q], a->buf[K], a->buf[V], a->ints[PB],
                                 a->ints[PH], a->ints[PT], a->ints[PD], a->ints[PSINK],
                                 a->ints[PW], scratch);
    free(scratch);
    return st == ATT_OK ? JUDGE_OK : JUDGE_EREFERENCE;
}

const judge_ops judge_sink_ops = {
    "attention-sinks", param_names, N_PARAMS, make_inputs, reference, NULL, NULL, NULL, NULL,
};
