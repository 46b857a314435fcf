/* problem_sdpa.c: what the judge knows about exercise 47, scaled dot-product
 * attention with T queries against S >= T keys, beyond its data in
 * problems/47-sdpa: its hidden inputs, its reference (the core's att_sdpa_ref
 * for each batch and head), the classic mistakes it can name, and how to probe
 * which keys reach which queries (a T x S picture: the KV-cache offset shows). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "att.h"
#include "judge.h"

enum { OUT, Q, K, V, MASK, PB, PH, PT, PS, PD, PCAUSAL, N_PARAMS };

static const char *const param_names[N_PARAMS] = {
    "out", "q", "k", "v", "mask", "B", "H", "T", "S", "D", "causal",
};

static void make_inputs(judge_args *a, const judge_case *c, uint64_t seed, int case_index)
{
    int B = a->ints[PB], S = a->ints[PS];
    uint64_t stream = (uint64_t)case_index << 8;
    /* q, k ~ U[-sqrt 3, sqrt 3) have unit variance, so q.k / sqrt(D) does too:
     * scores of the size a trained model has. The case's scale multiplies q
     * only (scores that overflow expf without the max), v keeps unit size. */
    att_fill_uniform(a->buf[Q], a->len[Q], seed, stream + Q, 1.7320508f * c->scale);
    att_fill_uniform(a->buf[K], a->len[K], seed, stream + K, 1.7320508f);
    att_fill_uniform(a->buf[V], a->len[V], seed, stream + V, 1.0f);
    unsigned char *mask = a->buf[MASK];
    if (!mask) return;
    for (int b = 0; b < B; b++) {
        int pad = (b + 1) * S / (B + 2);   /* batches pad different amounts */
        for (int j = 0; j < S; j++) {
            unsigned char real = 1;
            if (!strcmp(c->mask, "right")) real = j < S - pad;
            else if (!strcmp(c->mask, "left")) real = j >= pad;
            else if (!strcmp(c->mask, "random"))
                real = (att_rng_u64(seed, stream + MASK, (uint64_t)(b * S + j)) & 3) != 0;
            mask[b * S + j] = real;
        }
    }
}

static void reference(void *const *outs, const judge_args *a)
{
    int B = a->ints[PB], H = a->ints[PH], T = a->ints[PT], S = a->ints[PS], D = a->ints[PD];
    const unsigned char *mask = a->buf[MASK];
    float *scratch = malloc(sizeof(float) * (size_t)S);
    if (!scratch) abort();   /* the judge's own sizes are small; nothing to recover */
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            size_t qo = ((size_t)b * H + h) * T * D, ko = ((size_t)b * H + h) * S * D;
            att_sdpa_ref((float *)outs[OUT] + qo, D, (const float *)a->buf[Q] + qo, D,
                         (const float *)a->buf[K] + ko, (const float *)a->buf[V] + ko, D,
                         mask ? mask + (size_t)b * S : NULL, T, S, D, a->ints[PCAUSAL],
                         1.0f / sqrtf((float)D), scratch);
        }
    free(scratch);
}

/* ---- the classic mistakes, simulated: one plain float implementation with a
 * flag for each, the judge's model of wrong code (not a reference) ---- */
enum {
    NO_SCALE = 1, NO_OFFSET = 2, NO_CAUSAL = 4, DIAGONAL = 8, ALWAYS_CAUSAL = 16,
    NO_PADDING = 32, NAN_EMPTY = 64, NO_MAX = 128,
};

static void sdpa_with(void *const *outs, const judge_args *a, int f)
{
    int B = a->ints[PB], H = a->ints[PH], T = a->ints[PT], S = a->ints[PS], D = a->ints[PD];
    int causal = f & ALWAYS_CAUSAL ? 1 : a->ints[PCAUSAL] && !(f & NO_CAUSAL);
    int offset = f & NO_OFFSET ? 0 : S - T;
    float scale = f & NO_SCALE ? 1.0f : 1.0f / sqrtf((float)D);
    const unsigned char *mask = f & NO_PADDING ? NULL : a->buf[MASK];
    float *p = malloc(sizeof(float) * (size_t)S);
    if (!p) abort();
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *q = (const float *)a->buf[Q] + ((size_t)b * H + h) * T * D;
            const float *k = (const float *)a->buf[K] + ((size_t)b * H + h) * S * D;
            const float *v = (const float *)a->buf[V] + ((size_t)b * H + h) * S * D;
            float *o = (float *)outs[OUT] + ((size_t)b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                float max = -INFINITY, sum = 0.0f;
                for (int j = 0; j < S; j++) {
                    int ok = !causal || (f & DIAGONAL ? j < i + offset : j <= i + offset);
                    if (mask && !mask[b * S + j]) ok = 0;
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += q[i * D + c] * k[j * D + c];
                    p[j] = ok ? s * scale : -INFINITY;
                    if (p[j] > max) max = p[j];
                }
                for (int j = 0; j < S; j++) {
                    p[j] = p[j] == -INFINITY ? 0.0f : expf(f & NO_MAX ? p[j] : p[j] - max);
                    sum += p[j];
                }
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j < S; j++) acc += p[j] * v[j * D + c];
                    /* No key seen: sum is 0, and 0/0 is what unguarded code returns. */
                    o[i * D + c] = max > -INFINITY ? acc / sum : (f & NAN_EMPTY ? NAN : 0.0f);
                }
            }
        }
    free(p);
}

#define MISTAKE(fn, flags) \
    static void fn(void *const *outs, const judge_args *a) { sdpa_with(outs, a, flags); }
MISTAKE(no_scale, NO_SCALE)
MISTAKE(causal_no_offset, NO_OFFSET)
MISTAKE(no_causal_mask, NO_CAUSAL)
MISTAKE(diagonal_masked, DIAGONAL)
MISTAKE(causal_flag_ignored, ALWAYS_CAUSAL)
MISTAKE(padding_ignored, NO_PADDING)
MISTAKE(nan_empty_row, NAN_EMPTY)
MISTAKE(softmax_overflow, NO_MAX)

static const judge_mistake mistakes[] = {
    { "no_scale", "the scores are not scaled by 1/sqrt(D)",
      "divide q.k by sqrt(D) before the softmax", no_scale },
    { "causal_no_offset", "the causal mask ignores the KV-cache offset: query i sees keys j <= i",
      "the T queries are the last T of S positions: query i sees keys j <= i + (S - T)",
      causal_no_offset },
    { "no_causal_mask", "no causal mask: queries see future keys",
      "with causal = 1, query i may only see keys j <= i + (S - T)", no_causal_mask },
    { "diagonal_masked", "the causal mask hides the diagonal: a query cannot see its own key",
      "the condition is j <= i + (S - T), not j < i + (S - T)", diagonal_masked },
    { "causal_flag_ignored", "the causal flag is ignored: the mask is applied even when causal = 0",
      "mask the future only when causal is non-zero", causal_flag_ignored },
    { "padding_ignored", "the key padding mask is ignored",
      "when mask is not NULL, a key j with mask[b*S + j] == 0 is seen by no query", padding_ignored },
    { "nan_empty_row", "a query that sees no key gives NaN instead of zeros",
      "when every score of a row is masked, output zeros (guard the 0/0 of the softmax)",
      nan_empty_row },
    { "softmax_overflow", "the softmax overflows: exp() of large scores without subtracting the max",
      "subtract the row's maximum score before exp()", softmax_overflow },
};

static void coords(char *buf, size_t n, const judge_args *a, int p, size_t i)
{
    (void)p;
    size_t H = (size_t)a->ints[PH], T = (size_t)a->ints[PT], D = (size_t)a->ints[PD];
    size_t r = i / D;
    snprintf(buf, n, "b=%zu, head %zu, query t=%zu, dim %zu", r / T / H, r / T % H, r % T, i % D);
}

/* Probe every key position; watch the T queries of batch 0, head 0. */
static int probe_len(const judge_args *a) { return a->ints[PS]; }

static void probe_perturb(judge_args *a, int j)
{
    judge_probe_kv(a, K, V, a->ints[PH], a->ints[PS], a->ints[PD], j);
}

static void probe_row(const judge_args *a, int i, size_t *start, size_t *n)
{
    judge_probe_rows(a->ints[PT], a->ints[PD], i, start, n);
}

const judge_ops judge_sdpa_ops = {
    "sdpa", param_names, N_PARAMS, make_inputs, reference, mistakes,
    sizeof mistakes / sizeof mistakes[0], coords, probe_len, probe_perturb, probe_row,
};
