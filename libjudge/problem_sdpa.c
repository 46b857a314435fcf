/* problem_sdpa.c: exercise 47, scaled dot-product attention, beyond its data in
 * problems/47-sdpa: how its hidden inputs are made and its reference (the
 * core's att_sdpa_ref). Its mistakes, mask probe and coordinates are data
 * (problem.json), judged through the shared attention form (form.c). */
#include <math.h>
#include <stdlib.h>
#include "att.h"
#include "judge.h"

enum { OUT, Q, K, V, MASK, PB, PH, PT, PS, PD, PCAUSAL, N_PARAMS };

static const char *const param_names[N_PARAMS] = {
    "out", "q", "k", "v", "mask", "B", "H", "T", "S", "D", "causal",
};

static void make_inputs(judge_args *a, const judge_case *c, uint64_t seed, int case_index)
{
    uint64_t stream = (uint64_t)case_index << 8;
    /* q, k ~ U[-sqrt 3, sqrt 3) have unit variance, so q.k / sqrt(D) does too:
     * scores of the size a trained model has. The case's scale multiplies q
     * only (scores that overflow expf without the max), v keeps unit size. */
    att_fill_uniform(a->buf[Q], a->len[Q], seed, stream + Q, 1.7320508f * c->scale);
    att_fill_uniform(a->buf[K], a->len[K], seed, stream + K, 1.7320508f);
    if (c->negative) {
        judge_sign(a->buf[Q], a->len[Q], -1);
        judge_sign(a->buf[K], a->len[K], 1);
    }
    att_fill_uniform(a->buf[V], a->len[V], seed, stream + V, 1.0f);
    if (a->buf[MASK])
        judge_fill_mask(a->buf[MASK], a->ints[PB], a->ints[PS], c->mask, seed, stream + MASK, 0);
}

static judge_status reference(void *const *outs, const judge_args *a)
{
    int B = a->ints[PB], H = a->ints[PH], T = a->ints[PT], S = a->ints[PS], D = a->ints[PD];
    const unsigned char *mask = a->buf[MASK];
    float *scratch = malloc(sizeof(float) * (size_t)S);
    if (!scratch) return JUDGE_ENOMEM;
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            size_t qo = ((size_t)b * H + h) * T * D, ko = ((size_t)b * H + h) * S * D;
            att_sdpa_ref((float *)outs[OUT] + qo, D, (const float *)a->buf[Q] + qo, D,
                         (const float *)a->buf[K] + ko, (const float *)a->buf[V] + ko, D,
                         mask ? mask + (size_t)b * S : NULL, T, S, D, a->ints[PCAUSAL],
                         1.0f / sqrtf((float)D), scratch);
        }
    free(scratch);
    return JUDGE_OK;
}

const judge_ops judge_sdpa_ops = {
    "sdpa", param_names, N_PARAMS, make_inputs, reference, NULL, NULL, NULL, NULL,
};
