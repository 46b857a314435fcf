/* problem_gqa.c: what the judge knows about exercise 51, grouped-query
 * attention, beyond its data in problems/51-gqa: its hidden inputs, its
 * reference (the core's att_gqa_ref), the classic mistakes it can name, and
 * the probe of which keys reach which queries. */
#include <math.h>
#include <stdio.h>
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
    att_fill_uniform(a->buf[V], a->len[V], seed, stream + V, 1.0f);
}

static void reference(void *const *outs, const judge_args *a)
{
    float *scratch = malloc(sizeof(float) * (size_t)a->ints[PS]);
    if (!scratch) abort();   /* the judge's own sizes are small; nothing to recover */
    /* Every case in problem.json has H % Hkv == 0. Were one not to, the status
     * would leave the expected output zeros, and the solution would fail. */
    att_gqa_ref(outs[OUT], a->buf[Q], a->buf[K], a->buf[V], a->ints[PB], a->ints[PH],
                a->ints[PHKV], a->ints[PT], a->ints[PS], a->ints[PD], a->ints[PCAUSAL], scratch);
    free(scratch);
}

/* ---- the classic mistakes, simulated: one plain float implementation with a
 * flag for each, the judge's model of wrong code (not a reference) ---- */
enum { MODULO = 1, FIRST_KV = 2, NO_SCALE = 4, NO_OFFSET = 8, NO_CAUSAL = 16 };

static void gqa_with(void *const *outs, const judge_args *a, int f)
{
    int B = a->ints[PB], H = a->ints[PH], Hkv = a->ints[PHKV], T = a->ints[PT];
    int S = a->ints[PS], D = a->ints[PD];
    int causal = a->ints[PCAUSAL] && !(f & NO_CAUSAL), offset = f & NO_OFFSET ? 0 : S - T;
    float scale = f & NO_SCALE ? 1.0f : 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * (size_t)S);
    if (!p) abort();
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            /* MODULO: repeat() instead of repeat_interleave(); FIRST_KV: MQA everywhere. */
            int kvh = f & MODULO ? h % Hkv : f & FIRST_KV ? 0 : h / (H / Hkv);
            const float *q = (const float *)a->buf[Q] + ((size_t)b * H + h) * T * D;
            const float *k = (const float *)a->buf[K] + ((size_t)b * Hkv + kvh) * S * D;
            const float *v = (const float *)a->buf[V] + ((size_t)b * Hkv + kvh) * S * D;
            float *o = (float *)outs[OUT] + ((size_t)b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                float max = -INFINITY, sum = 0.0f;
                for (int j = 0; j < S; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += q[i * D + c] * k[j * D + c];
                    p[j] = !causal || j <= i + offset ? s * scale : -INFINITY;
                    max = fmaxf(max, p[j]);
                }
                for (int j = 0; j < S; j++) {
                    p[j] = p[j] == -INFINITY ? 0.0f : expf(p[j] - max);
                    sum += p[j];
                }
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j < S; j++) acc += p[j] * v[j * D + c];
                    o[i * D + c] = acc / sum;   /* key 0 is always seen */
                }
            }
        }
    free(p);
}

#define MISTAKE(fn, flags) \
    static void fn(void *const *outs, const judge_args *a) { gqa_with(outs, a, flags); }
MISTAKE(kv_head_modulo, MODULO)
MISTAKE(kv_head_always_first, FIRST_KV)
MISTAKE(no_scale, NO_SCALE)
MISTAKE(causal_no_offset, NO_OFFSET)
MISTAKE(no_causal_mask, NO_CAUSAL)

static const judge_mistake mistakes[] = {
    { "kv_head_modulo", "query head h reads key/value head h % Hkv instead of h / (H / Hkv)",
      "groups are consecutive: heads 0 .. H/Hkv - 1 share kv head 0 (repeat_interleave, not repeat)",
      kv_head_modulo },
    { "kv_head_always_first", "every query head reads key/value head 0, as in multi-query attention",
      "query head h uses kv head h / (H / Hkv); only Hkv = 1 shares one head across all",
      kv_head_always_first },
    { "no_scale", "the scores are not scaled by 1/sqrt(D)",
      "divide q.k by sqrt(D) before the softmax", no_scale },
    { "causal_no_offset", "the causal mask ignores the KV-cache offset: query i sees keys j <= i",
      "the T queries are the last T of S positions: query i sees keys j <= i + (S - T)",
      causal_no_offset },
    { "no_causal_mask", "no causal mask: queries see future keys",
      "with causal = 1, query i may only see keys j <= i + (S - T)", no_causal_mask },
};

static void coords(char *buf, size_t n, const judge_args *a, int p, size_t i)
{
    (void)p;
    size_t H = (size_t)a->ints[PH], T = (size_t)a->ints[PT], D = (size_t)a->ints[PD];
    size_t r = i / D, h = r / T % H, group = H / (size_t)a->ints[PHKV];
    snprintf(buf, n, "b=%zu, head %zu (kv head %zu), query t=%zu, dim %zu", r / T / H, h,
             h / group, r % T, i % D);
}

/* Perturb key and value j of batch 0 in every kv head; watch query head 0. */
static int probe_len(const judge_args *a) { return a->ints[PS]; }

static void probe_perturb(judge_args *a, int j)
{
    judge_probe_kv(a, K, V, a->ints[PHKV], a->ints[PS], a->ints[PD], j);
}

static void probe_row(const judge_args *a, int i, size_t *start, size_t *n)
{
    judge_probe_rows(a->ints[PT], a->ints[PD], i, start, n);
}

const judge_ops judge_gqa_ops = {
    "gqa", param_names, N_PARAMS, make_inputs, reference, mistakes,
    sizeof mistakes / sizeof mistakes[0], coords, probe_len, probe_perturb, probe_row,
};
