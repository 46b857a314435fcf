/* problem_weights.c: exercise 48, attention weights and the attention sink, beyond its data in
 * problems/48-attention-weights: how its hidden inputs are made and its reference (the
 * core's att_probs_ref). Its mistakes, mask probe and coordinates are data
 * (problem.json), judged through the shared attention form (form.c). */
#include <math.h>
#include "att.h"
#include "judge.h"

enum { PROBS, SINK, Q, K, PB, PH, PT, PS, PD, PCAUSAL, N_PARAMS };

static const char *const param_names[N_PARAMS] = {
    "probs", "sink", "q", "k", "B", "H", "T", "S", "D", "causal",
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
}

static judge_status reference(void *const *outs, const judge_args *a)
{
    int B = a->ints[PB], H = a->ints[PH], T = a->ints[PT], S = a->ints[PS], D = a->ints[PD];
    float *probs = outs[PROBS], *sink = outs[SINK];
    for (int bh = 0; bh < B * H; bh++)
        att_probs_ref(probs + (size_t)bh * T * S, S, (const float *)a->buf[Q] + (size_t)bh * T * D,
                      D, (const float *)a->buf[K] + (size_t)bh * S * D, D, NULL, T, S, D,
                      a->ints[PCAUSAL], 1.0f / sqrtf((float)D));
    for (size_t r = 0; r < (size_t)B * H * T; r++) sink[r] = probs[r * S];
    return JUDGE_OK;
}

const judge_ops judge_weights_ops = {
    "attention-weights", param_names, N_PARAMS, make_inputs, reference, NULL, NULL, NULL, NULL,
};
