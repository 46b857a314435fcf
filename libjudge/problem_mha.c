/* problem_mha.c: exercise 49, causal multi-head attention, beyond its data in
 * problems/49-causal-mha: how its hidden inputs are made and its reference (the
 * core's att_mha_simd). Its mistakes, mask probe and coordinates are data
 * (problem.json), judged through the shared attention form (form.c). */
#include <math.h>
#include <stdlib.h>
#include "att.h"
#include "judge.h"

/* Param positions, as in problem.json ("params"); judge_ops_for() checks
 * that the metadata still agrees. */
enum { OUT, X, WQ, WK, WV, WO, MASK, PB, PT, PD, PH, PCAUSAL, N_PARAMS };

static const char *const param_names[N_PARAMS] = {
    "out", "x", "wq", "wk", "wv", "wo", "mask", "B", "T", "d", "n_heads", "causal",
};

static void make_inputs(judge_args *a, const judge_case *c, uint64_t seed, int case_index)
{
    int d = a->ints[PD];
    uint64_t stream = (uint64_t)case_index << 8;
    /* x ~ U[-1, 1); weights ~ U[-3/sqrt(d), 3/sqrt(d)), which keeps q, k, v
     * and the scores near unit size. The case's scale multiplies wq only: the
     * scores grow by it (large enough to overflow exp() without the max
     * subtracted) while v and the outputs keep their size, so a correct
     * float32 kernel stays well inside the tolerance. */
    att_fill_uniform(a->buf[X], a->len[X], seed, stream + X, 1.0f);
    float w = 3.0f / sqrtf((float)d);
    for (int p = WQ; p <= WO; p++)
        att_fill_uniform(a->buf[p], a->len[p], seed, stream + (uint64_t)p,
                         p == WQ ? w * c->scale : w);
    if (c->negative) {   /* x, wq >= 0 and wk <= 0: q >= 0, k <= 0, every q.k <= 0 */
        judge_sign(a->buf[X], a->len[X], 1);
        judge_sign(a->buf[WQ], a->len[WQ], 1);
        judge_sign(a->buf[WK], a->len[WK], -1);
    }
    if (a->buf[MASK])
        judge_fill_mask(a->buf[MASK], a->ints[PB], a->ints[PT], c->mask, seed, stream + MASK, 0);
}

static judge_status reference(void *const *outs, const judge_args *a)
{
    /* The core's fast path (att_mha_simd), held to att_mha_ref by
     * tests/kernels_test.c well inside this problem's tolerance. One thread:
     * the learner's code runs on one, and "your time vs the reference"
     * compares like with like; the result does not depend on it. */
    int T = a->ints[PT], d = a->ints[PD], H = a->ints[PH];
    size_t n = att_mha_simd_scratch_floats(T, d, H, 1);
    float *scratch = malloc((n ? n : 1) * sizeof(float));
    if (!scratch) return JUDGE_ENOMEM;
    att_mha_simd(outs[OUT], a->buf[X], a->buf[WQ], a->buf[WK], a->buf[WV], a->buf[WO],
                 a->buf[MASK], a->ints[PB], T, d, H, a->ints[PCAUSAL], 1, scratch);
    free(scratch);
    return JUDGE_OK;
}

const judge_ops judge_mha_ops = {
    "causal-mha", param_names, N_PARAMS, make_inputs, reference, NULL, NULL, NULL, NULL,
};
