/* problems.c: the judge's problem table, one line per problem: its slug in
 * problems/ and the ops that know how to judge it (problem_<name>.c). */
#include <string.h>
#include "judge.h"

extern const judge_ops judge_mha_ops;
extern const judge_ops judge_flops_ops;
extern const judge_ops judge_decode_ops;
extern const judge_ops judge_sink_ops;
extern const judge_ops judge_cross_ops;
extern const judge_ops judge_flash_ops;
extern const judge_ops judge_softmax_ops;
extern const judge_ops judge_heads_ops;
extern const judge_ops judge_sdpa_ops;
extern const judge_ops judge_weights_ops;
extern const judge_ops judge_window_ops;
extern const judge_ops judge_gqa_ops;
extern const judge_ops judge_paged_ops;
extern const judge_ops judge_merge_ops;
extern const judge_ops judge_learned_sinks_ops;
extern const judge_ops judge_alibi_ops;
extern const judge_ops judge_int8_ops;
extern const judge_ops judge_backward_ops;
extern const judge_ops judge_flash_backward_ops;
extern const judge_ops judge_rope_ops;
extern const judge_ops judge_rope_decode_ops;
extern const judge_ops judge_mla_ops;
extern const judge_ops judge_linear_ops;
extern const judge_ops judge_varlen_ops;
extern const judge_ops judge_topk_ops;
extern const judge_ops judge_hybrid_ops;

static const judge_ops *const table[] = {
    &judge_mha_ops,
    &judge_flops_ops,
    &judge_decode_ops,
    &judge_sink_ops,
    &judge_cross_ops,
    &judge_flash_ops,
    &judge_softmax_ops,
    &judge_heads_ops,
    &judge_sdpa_ops,
    &judge_weights_ops,
    &judge_window_ops,
    &judge_gqa_ops,
    &judge_paged_ops,
    &judge_merge_ops,
    &judge_learned_sinks_ops,
    &judge_alibi_ops,
    &judge_int8_ops,
    &judge_backward_ops,
    &judge_flash_backward_ops,
    &judge_rope_ops,
    &judge_rope_decode_ops,
    &judge_mla_ops,
    &judge_linear_ops,
    &judge_varlen_ops,
    &judge_topk_ops,
    &judge_hybrid_ops,
};

const judge_ops *judge_ops_for(const judge_meta *m)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        const judge_ops *o = table[i];
        if (strcmp(o->slug, m->slug)) continue;
        /* The ops index params by position: refuse a problem.json that moved them. */
        if (o->n_params != m->n_params) return NULL;
        for (int p = 0; p < m->n_params; p++)
            if (strcmp(o->params[p], m->params[p].name)) return NULL;
        return o;
    }
    return NULL;
}
