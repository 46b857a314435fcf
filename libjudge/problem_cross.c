/* problem_cross.c: what the judge knows about exercise 54, cross-attention
 * with an encoder padding mask, beyond its data in problems/54-cross-attention:
 * how its inputs and masks are made, the reference (the core's), the classic
 * mistakes it can name (most of them habits carried over from decoder
 * self-attention), and the probe of which encoder keys reach which queries. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "att.h"
#include "judge.h"

enum { OUT, Q, K, V, MASK, PB, PH, PT, PS, PD, N_PARAMS };

static const char *const param_names[N_PARAMS] = {
    "out", "q", "k", "v", "enc_mask", "B", "H", "T", "S", "D",
};

/* Masks: "right" and "left" pad (b + 1) * S / (B + 2) encoder tokens of
 * sequence b; "random" pads every encoder token of sequence 0 (an empty
 * encoder: its queries see nothing) and about a quarter of the others. The
 * case's scale multiplies q, for scores that overflow expf(). */
static void make_inputs(judge_args *a, const judge_case *c, uint64_t seed, int case_index)
{
    int B = a->ints[PB], S = a->ints[PS];
    uint64_t stream = (uint64_t)case_index << 8;
    att_fill_uniform(a->buf[Q], a->len[Q], seed, stream + Q, 2.0f * c->scale);
    att_fill_uniform(a->buf[K], a->len[K], seed, stream + K, 2.0f);
    att_fill_uniform(a->buf[V], a->len[V], seed, stream + V, 1.0f);
    unsigned char *mask = a->buf[MASK];
    if (!mask) return;
    for (int b = 0; b < B; b++) {
        int pad = (b + 1) * S / (B + 2);
        for (int j = 0; j < S; j++) {
            unsigned char real = 1;
            if (!strcmp(c->mask, "right")) real = j < S - pad;
            else if (!strcmp(c->mask, "left")) real = j >= pad;
            else if (!strcmp(c->mask, "random"))
                real = b > 0 && (att_rng_u64(seed, stream + MASK, (uint64_t)(b * S + j)) & 3) != 0;
            mask[b * S + j] = real;
        }
    }
}

static void reference(void *const *outs, const judge_args *a)
{
    float *scratch = malloc(sizeof(float) * (size_t)a->ints[PS]);
    if (!scratch) abort();   /* the judge's own sizes are small; nothing to recover */
    att_status st = att_cross_ref(outs[OUT], a->buf[Q], a->buf[K], a->buf[V], a->buf[MASK],
                                  a->ints[PB], a->ints[PH], a->ints[PT], a->ints[PS],
                                  a->ints[PD], scratch);
    free(scratch);
    if (st != ATT_OK) abort();   /* problem.json's sizes are valid */
}

/* ---- the classic mistakes, simulated ----
 * One plain float implementation with a flag per mistake. */
enum {
    NO_PADDING = 1 << 0, STRIDE_T = 1 << 1, CAUSAL = 1 << 2, NAN_EMPTY = 1 << 3,
    NO_SCALE = 1 << 4, NO_MAX = 1 << 5,
};

static void cross_with(void *const *outs, const judge_args *a, int f)
{
    int B = a->ints[PB], H = a->ints[PH], T = a->ints[PT], S = a->ints[PS], D = a->ints[PD];
    const float *q = a->buf[Q], *k = a->buf[K], *v = a->buf[V];
    const unsigned char *mask = a->buf[MASK];
    float *out = outs[OUT], scale = f & NO_SCALE ? 1.0f : 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * (size_t)S);
    if (!p) abort();
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            size_t bh = (size_t)b * H + h;
            for (int i = 0; i < T; i++) {
                float max = -INFINITY, sum = 0.0f;
                int seen = 0;
                for (int j = 0; j < S; j++) {
                    int ok = !(f & CAUSAL) || j <= i;
                    if (mask && !(f & NO_PADDING)) {
                        /* STRIDE_T: mask[b * T + j], the self-attention habit.
                         * Past the mask's end a learner reads the judge's
                         * guard bytes, which are non-zero: "real". */
                        size_t at = f & STRIDE_T ? (size_t)b * T + j : (size_t)b * S + j;
                        if (at < (size_t)B * S && !mask[at]) ok = 0;
                    }
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += q[(bh * T + i) * D + c] * k[(bh * S + j) * D + c];
                    p[j] = ok ? s * scale : -INFINITY;
                    if (p[j] > max) max = p[j];
                    seen += ok;
                }
                for (int j = 0; j < S; j++) {
                    p[j] = p[j] == -INFINITY ? 0.0f : expf(f & NO_MAX ? p[j] : p[j] - max);
                    sum += p[j];
                }
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j < S; j++) acc += p[j] * v[(bh * S + j) * D + c];
                    out[(bh * T + i) * D + c] = seen ? acc / sum : f & NAN_EMPTY ? NAN : 0.0f;
                }
            }
        }
    free(p);
}

#define MISTAKE(fn, flags) \
    static void fn(void *const *outs, const judge_args *a) { cross_with(outs, a, flags); }
MISTAKE(padding_ignored, NO_PADDING)
MISTAKE(mask_stride_t, STRIDE_T)
MISTAKE(causal_applied, CAUSAL)
MISTAKE(nan_empty_encoder, NAN_EMPTY)
MISTAKE(no_scale, NO_SCALE)
MISTAKE(softmax_overflow, NO_MAX)

static const judge_mistake mistakes[] = {
    { "padding_ignored", "the encoder padding mask is ignored",
      "when enc_mask is not NULL, an encoder key j with enc_mask[b*S + j] == 0 is seen by no query",
      padding_ignored },
    { "mask_stride_t", "the encoder mask is indexed with the decoder length T instead of S",
      "enc_mask is [B, S]: sequence b's row starts at b*S, not b*T", mask_stride_t },
    { "causal_applied", "a causal mask is applied: query i only sees encoder keys j <= i",
      "cross-attention has no causal mask: every decoder query may see the whole encoder output",
      causal_applied },
    { "nan_empty_encoder", "a query whose encoder is all padding gives NaN instead of zeros",
      "when no encoder key is real, output zeros (guard the 0/0 of the softmax)", nan_empty_encoder },
    { "no_scale", "the scores are not scaled by 1/sqrt(D)",
      "divide q.k by sqrt(D) before the softmax", no_scale },
    { "softmax_overflow", "the softmax overflows: exp() of large scores without subtracting the max",
      "subtract the row's maximum score before exp()", softmax_overflow },
};

static void coords(char *buf, size_t n, const judge_args *a, int p, size_t i)
{
    (void)p;
    int H = a->ints[PH], T = a->ints[PT], D = a->ints[PD];
    snprintf(buf, n, "b=%d, head %d, query %d, dim %d", (int)(i / ((size_t)D * T * H)),
             (int)(i / ((size_t)D * T) % (size_t)H), (int)(i / (size_t)D % (size_t)T),
             (int)(i % (size_t)D));
}

/* Columns are the S encoder keys; rows the T queries (probe_row stops there). */
static int probe_len(const judge_args *a) { return a->ints[PS]; }

/* Move encoder key and value j of batch 0, every head: a query that sees
 * key j changes, and no other. */
static void probe_perturb(judge_args *a, int j)
{
    judge_probe_kv(a, K, V, a->ints[PH], a->ints[PS], a->ints[PD], j);
}

static void probe_row(const judge_args *a, int i, size_t *start, size_t *n)
{
    judge_probe_rows(a->ints[PT], a->ints[PD], i, start, n);
}

const judge_ops judge_cross_ops = {
    "cross-attention", param_names, N_PARAMS, make_inputs, reference, mistakes,
    sizeof mistakes / sizeof mistakes[0], coords, probe_len, probe_perturb, probe_row,
};
