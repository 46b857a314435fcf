/* problem_window.c: exercise 50, sliding-window attention, beyond its data in
 * problems/50-sliding-window: how its hidden inputs are made and its reference (the
 * core's att_window_ref). Its mistakes, mask probe and coordinates are data
 * (problem.json), judged through the shared attention form (form.c). */
#include <math.h>
#include <stdlib.h>
#include "att.h"
#include "judge.h"

enum { OUT, Q, K, V, PB, PH, PT, PD, PW, N_PARAMS };

static const char *const param_names[N_PARAMS] = {
    "out", "q", "k", "v", "B", "H", "T", "D", "W",
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
    int B = a->ints[PB], H = a->ints[PH], T = a->ints[PT], D = a->ints[PD];
    float *scratch = malloc(sizeof(float) * (size_t)T);
    if (!scratch) return JUDGE_ENOMEM;
    for (int bh = 0; bh < B * H; bh++) {
        size_t o = (size_t)bh * T * D;
        att_window_ref((float *)outs[OUT] + o, D, (const float *)a->buf[Q] + o,
                       (const float *)a->buf[K] + o, (const float *)a->buf[V] + o, D, T, D,
                       a->ints[PW], 1.0f / sqrtf((float)D), scratch);
    }
    free(scratch);
    return JUDGE_OK;
}

const judge_ops judge_window_ops = {
    "sliding-window", param_names, N_PARAMS, make_inputs, reference, NULL, NULL, NULL, NULL,
};
