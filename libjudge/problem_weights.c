/* problem_weights.c: what the judge knows about exercise 48, attention
 * weights (the probabilities [B, H, T, S] and each query's share on position
 * 0, the attention-sink measurement), beyond its data in
 * problems/48-attention-weights: its hidden inputs, its reference (the core's
 * att_probs_ref per batch and head), the classic mistakes it can name, and
 * the probe of which keys reach which queries. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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
}

static void reference(void *const *outs, const judge_args *a)
{
    int B = a->ints[PB], H = a->ints[PH], T = a->ints[PT], S = a->ints[PS], D = a->ints[PD];
    float *probs = outs[PROBS], *sink = outs[SINK];
    for (int bh = 0; bh < B * H; bh++)
        att_probs_ref(probs + (size_t)bh * T * S, S, (const float *)a->buf[Q] + (size_t)bh * T * D,
                      D, (const float *)a->buf[K] + (size_t)bh * S * D, D, NULL, T, S, D,
                      a->ints[PCAUSAL], 1.0f / sqrtf((float)D));
    for (size_t r = 0; r < (size_t)B * H * T; r++) sink[r] = probs[r * S];
}

/* ---- the classic mistakes, simulated: one plain float implementation with a
 * flag for each, the judge's model of wrong code (not a reference) ---- */
enum {
    NO_SCALE = 1, NO_OFFSET = 2, COLUMNS = 4, MASK_AFTER = 8, SINK_STRIDE = 16, NO_MAX = 32,
};

static void weights_with(void *const *outs, const judge_args *a, int f)
{
    int B = a->ints[PB], H = a->ints[PH], T = a->ints[PT], S = a->ints[PS], D = a->ints[PD];
    int causal = a->ints[PCAUSAL], offset = f & NO_OFFSET ? 0 : S - T;
    float scale = f & NO_SCALE ? 1.0f : 1.0f / sqrtf((float)D);
    float *probs = outs[PROBS], *sink = outs[SINK];
    for (int bh = 0; bh < B * H; bh++) {
        const float *q = (const float *)a->buf[Q] + (size_t)bh * T * D;
        const float *k = (const float *)a->buf[K] + (size_t)bh * S * D;
        float *p = probs + (size_t)bh * T * S;
        for (int i = 0; i < T; i++)
            for (int j = 0; j < S; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += q[i * D + c] * k[j * D + c];
                /* MASK_AFTER keeps every score and zeroes the future later. */
                int seen = !causal || j <= i + offset || (f & MASK_AFTER);
                p[i * S + j] = seen ? s * scale : -INFINITY;
            }
        /* A line of the score matrix: a row (over keys), or (COLUMNS) a column. */
        int lines = f & COLUMNS ? S : T, len = f & COLUMNS ? T : S;
        size_t step = f & COLUMNS ? (size_t)S : 1, next = f & COLUMNS ? 1 : (size_t)S;
        for (int l = 0; l < lines; l++) {
            float *x = p + l * next, max = -INFINITY, sum = 0.0f;
            for (int e = 0; e < len; e++) max = fmaxf(max, x[e * step]);
            for (int e = 0; e < len; e++) {
                x[e * step] = max == -INFINITY ? 0.0f : expf(f & NO_MAX ? x[e * step] : x[e * step] - max);
                sum += x[e * step];
            }
            for (int e = 0; e < len; e++) x[e * step] = sum > 0.0f ? x[e * step] / sum : 0.0f;
        }
        if (f & MASK_AFTER)
            for (int i = 0; i < T; i++)
                for (int j = i + offset + 1; causal && j < S; j++) p[i * S + j] = 0.0f;
        /* SINK_STRIDE: the row stride taken as T, as if S were T. */
        for (int i = 0; i < T; i++)
            sink[(size_t)bh * T + i] = f & SINK_STRIDE ? p[i * T] : p[i * S];
    }
}

#define MISTAKE(fn, flags) \
    static void fn(void *const *outs, const judge_args *a) { weights_with(outs, a, flags); }
MISTAKE(no_scale, NO_SCALE)
MISTAKE(causal_no_offset, NO_OFFSET)
MISTAKE(wrong_axis, COLUMNS)
MISTAKE(mask_after_softmax, MASK_AFTER)
MISTAKE(sink_wrong_stride, SINK_STRIDE)
MISTAKE(softmax_overflow, NO_MAX)

static const judge_mistake mistakes[] = {
    { "no_scale", "the scores are not scaled by 1/sqrt(D)",
      "divide q.k by sqrt(D) before the softmax", no_scale },
    { "causal_no_offset", "the causal mask ignores the KV-cache offset: query i sees keys j <= i",
      "the T queries are the last T of S positions: query i sees keys j <= i + (S - T)",
      causal_no_offset },
    { "wrong_axis", "the softmax runs over the queries (each column) instead of over the keys",
      "each query's row probs[b][h][i][0 .. S-1] must sum to 1 (dim = -1)", wrong_axis },
    { "mask_after_softmax", "the causal mask is applied after the softmax: rows no longer sum to 1",
      "set the hidden scores to -inf before the softmax, so the visible keys share all the weight",
      mask_after_softmax },
    { "sink_wrong_stride", "the sink share is read with a row stride of T instead of S",
      "query i's share on position 0 is probs[((b*H + h)*T + i)*S + 0]", sink_wrong_stride },
    { "softmax_overflow", "the softmax overflows: exp() of large scores without subtracting the max",
      "subtract the row's maximum score before exp()", softmax_overflow },
};

static void coords(char *buf, size_t n, const judge_args *a, int p, size_t i)
{
    size_t H = (size_t)a->ints[PH], T = (size_t)a->ints[PT], S = (size_t)a->ints[PS];
    size_t r = p == PROBS ? i / S : i;   /* the query's row: (b*H + h)*T + t */
    if (p == PROBS)
        snprintf(buf, n, "b=%zu, head %zu, query t=%zu, key %zu", r / T / H, r / T % H, r % T, i % S);
    else
        snprintf(buf, n, "b=%zu, head %zu, query t=%zu", r / T / H, r / T % H, r % T);
}

/* Probe every key position; a query that sees key j gets a new row of weights. */
static int probe_len(const judge_args *a) { return a->ints[PS]; }

static void probe_perturb(judge_args *a, int j)
{
    judge_probe_kv(a, K, -1, a->ints[PH], a->ints[PS], a->ints[PD], j);
}

static void probe_row(const judge_args *a, int i, size_t *start, size_t *n)
{
    judge_probe_rows(a->ints[PT], a->ints[PS], i, start, n);
}

const judge_ops judge_weights_ops = {
    "attention-weights", param_names, N_PARAMS, make_inputs, reference, mistakes,
    sizeof mistakes / sizeof mistakes[0], coords, probe_len, probe_perturb, probe_row,
};
