/* problem_learned_sinks.c: exercise 62, gpt-oss's learned attention sinks,
 * beyond its data in problems/62-learned-sinks: how its hidden inputs are
 * made and its reference (the core's att_learned_sink_ref). Its mistakes,
 * mask probe and coordinates are data (problem.json), judged through the
 * shared attention form (form.c). */
#include <stdlib.h>
#include "att.h"
#include "judge.h"

enum { OUT, Q, K, V, SINKS, PB, PH, PT, PD, PW, N_PARAMS };

static const char *const param_names[N_PARAMS] = {
    "out", "q", "k", "v", "sinks", "B", "H", "T", "D", "W",
};

/* Unit-variance scores, as in exercise 47, and sink logits in [-2, 2) of
 * the same size, so that the sink takes a real share. The case's scale
 * multiplies q and the sinks: scores and sinks past expf's range, a sink
 * far above or far below a row's scores. With "negative", every score is
 * far below 0 and the sinks keep their size (a sink far above every score),
 * but in odd heads they sit 1000 lower, far below every score: there a max
 * that starts at 0 makes every term underflow. */
static void make_inputs(judge_args *a, const judge_case *c, uint64_t seed, int case_index)
{
    uint64_t stream = (uint64_t)case_index << 8;
    att_fill_uniform(a->buf[Q], a->len[Q], seed, stream + Q, 1.7320508f * c->scale);
    att_fill_uniform(a->buf[K], a->len[K], seed, stream + K, 1.7320508f);
    att_fill_uniform(a->buf[SINKS], a->len[SINKS], seed, stream + SINKS,
                     2.0f * (c->negative ? 1.0f : c->scale));
    if (c->negative) {
        judge_sign(a->buf[Q], a->len[Q], -1);
        judge_sign(a->buf[K], a->len[K], 1);
        float *sinks = a->buf[SINKS];
        for (size_t h = 1; h < a->len[SINKS]; h += 2) sinks[h] -= 1000.0f;
    }
    att_fill_uniform(a->buf[V], a->len[V], seed, stream + V, 1.0f);
}

static judge_status reference(void *const *outs, const judge_args *a)
{
    float *scratch = malloc(sizeof(float) * (size_t)a->ints[PT]);
    if (!scratch) return JUDGE_ENOMEM;
    att_status st = att_learned_sink_ref(outs[OUT], a->buf[Q], a->buf[K], a->buf[V], a->buf[SINKS],
                                         a->ints[PB], a->ints[PH], a->ints[PT], a->ints[PD],
                                         a->ints[PW], scratch);
    free(scratch);
    return st == ATT_OK ? JUDGE_OK : JUDGE_EREFERENCE;
}

const judge_ops judge_learned_sinks_ops = {
    "learned-sinks", param_names, N_PARAMS, make_inputs, reference, NULL, NULL, NULL, NULL,
};
