/* problem_flash.c: what the judge knows about exercise 55, the FlashAttention
 * forward pass, beyond its data in problems/55-flash-attention: how its
 * inputs are made, the reference (the core's plain attention with the row
 * log-sum-exp), and the classic mistakes of online softmax it can name. The
 * tiling itself is enforced by memory, not inspected: the learner gets a
 * small scratch buffer, and problem.json's memory limit and MLE hint stop a
 * solution that holds the T x S scores. The probe draws which keys reach
 * which queries, T rows by S columns, so the causal mask's bottom-right
 * alignment (the KV-cache offset) shows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "att.h"
#include "judge.h"

enum { OUT, LSE, Q, K, V, SCRATCH, PB, PH, PT, PS, PD, PCAUSAL, PN, N_PARAMS };

static const char *const param_names[N_PARAMS] = {
    "out", "lse", "q", "k", "v", "scratch", "B", "H", "T", "S", "D", "causal", "n_scratch",
};

/* q ~ U[-2, 2) times the case's scale (scores that overflow expf() without
 * the max), k ~ U[-2, 2), v ~ U[-1, 1). */
static void make_inputs(judge_args *a, const judge_case *c, uint64_t seed, int case_index)
{
    uint64_t stream = (uint64_t)case_index << 8;
    att_fill_uniform(a->buf[Q], a->len[Q], seed, stream + Q, 2.0f * c->scale);
    att_fill_uniform(a->buf[K], a->len[K], seed, stream + K, 2.0f);
    att_fill_uniform(a->buf[V], a->len[V], seed, stream + V, 1.0f);
}

static void reference(void *const *outs, const judge_args *a)
{
    float *scratch = malloc(sizeof(float) * (size_t)a->ints[PS]);
    if (!scratch) abort();   /* the judge's own sizes are small; nothing to recover */
    att_status st = att_attn_lse_ref(outs[OUT], outs[LSE], a->buf[Q], a->buf[K], a->buf[V],
                                     a->ints[PB], a->ints[PH], a->ints[PT], a->ints[PS],
                                     a->ints[PD], a->ints[PCAUSAL], scratch);
    free(scratch);
    if (st != ATT_OK) abort();   /* problem.json's sizes are valid */
}

/* ---- the classic mistakes, simulated ----
 * One plain float online softmax over tiles of bc keys, with a flag per
 * mistake: the judge's model of wrong code, not a reference. Only a missing
 * rescale depends on the tiling (each tile's weights are taken against the
 * max known so far), so that mistake is simulated at the tile widths people
 * pick, each under the same name; the rest use one key at a time. */
enum {
    TOP_LEFT = 1 << 0, NO_SCALE = 1 << 1, LSE_LOG2 = 1 << 2, LSE_NO_MAX = 1 << 3,
    NO_RESCALE = 1 << 4, NOT_NORMALIZED = 1 << 5,
};

static void flash_with(void *const *outs, const judge_args *a, int f, int bc)
{
    int BH = a->ints[PB] * a->ints[PH], T = a->ints[PT], S = a->ints[PS], D = a->ints[PD];
    int causal = a->ints[PCAUSAL];
    const float *q = a->buf[Q], *k = a->buf[K], *v = a->buf[V];
    float *out = outs[OUT], *lse = outs[LSE];
    float scale = f & NO_SCALE ? 1.0f : 1.0f / sqrtf((float)D);
    float *acc = malloc(sizeof(float) * ((size_t)D + (size_t)bc)), *sc = acc + D;
    if (!acc) abort();
    for (int bh = 0; bh < BH; bh++)
        for (int i = 0; i < T; i++) {
            const float *qi = q + ((size_t)bh * T + i) * D;
            float m = -INFINITY, l = 0.0f;
            for (int c = 0; c < D; c++) acc[c] = 0.0f;
            int last = !causal ? S - 1 : f & TOP_LEFT ? i : i + S - T;
            if (last > S - 1) last = S - 1;
            for (int j0 = 0; j0 <= last; j0 += bc) {
                int end = j0 + bc - 1 < last ? j0 + bc - 1 : last;
                float m2 = m;
                for (int j = j0; j <= end; j++) {   /* the tile's scores, then its max */
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qi[c] * k[((size_t)bh * S + j) * D + c];
                    sc[j - j0] = s * scale;
                    if (sc[j - j0] > m2) m2 = sc[j - j0];
                }
                float corr = f & NO_RESCALE ? 1.0f : expf(m - m2);
                for (int c = 0; c < D; c++) acc[c] *= corr;
                l *= corr;
                for (int j = j0; j <= end; j++) {
                    float e = expf(sc[j - j0] - m2);
                    for (int c = 0; c < D; c++) acc[c] += e * v[((size_t)bh * S + j) * D + c];
                    l += e;
                }
                m = m2;
            }
            float *o = out + ((size_t)bh * T + i) * D;
            for (int c = 0; c < D; c++) o[c] = l > 0.0f ? (f & NOT_NORMALIZED ? acc[c] : acc[c] / l) : 0.0f;
            float L = l > 0.0f ? (f & LSE_NO_MAX ? 0.0f : m) + logf(l) : -INFINITY;
            lse[(size_t)bh * T + i] = f & LSE_LOG2 ? L / logf(2.0f) : L;
        }
    free(acc);
}

#define MISTAKE(fn, flags, bc) \
    static void fn(void *const *outs, const judge_args *a) { flash_with(outs, a, flags, bc); }
MISTAKE(causal_top_left, TOP_LEFT, 1)
MISTAKE(no_scale, NO_SCALE, 1)
MISTAKE(lse_base_two, LSE_LOG2, 1)
MISTAKE(lse_missing_max, LSE_NO_MAX, 1)
MISTAKE(no_rescale, NO_RESCALE, 1)
MISTAKE(no_rescale_8, NO_RESCALE, 8)
MISTAKE(no_rescale_16, NO_RESCALE, 16)
MISTAKE(no_rescale_32, NO_RESCALE, 32)
MISTAKE(no_rescale_64, NO_RESCALE, 64)
MISTAKE(no_rescale_128, NO_RESCALE, 128)
MISTAKE(not_normalized, NOT_NORMALIZED, 1)

#define NO_RESCALE_TEXT "the running sum and accumulator are not rescaled when the max grows", \
    "when the running max moves from m to m', multiply l and the output accumulator by exp(m - m')"

static const judge_mistake mistakes[] = {
    { "causal_top_left", "the causal mask is aligned top-left (j <= i) instead of bottom-right (j <= i + S - T)",
      "with S keys and T queries the queries are the last T positions: query i sees keys j <= i + S - T",
      causal_top_left },
    { "no_scale", "the scores are not scaled by 1/sqrt(D)",
      "divide q.k by sqrt(D); the log-sum-exp is of the scaled scores too", no_scale },
    { "lse_base_two", "the log-sum-exp is in base 2 (the exp2/log2 trick leaked into the result)",
      "lse is a natural log: log(sum_j exp(s_ij)); if you work in base 2, multiply by ln 2 at the end",
      lse_base_two },
    { "lse_missing_max", "the log-sum-exp forgets the running max: log(l) instead of m + log(l)",
      "l is a sum of exp(s - m): the row's log-sum-exp is m + log(l)", lse_missing_max },
    { "no_rescale", NO_RESCALE_TEXT, no_rescale },
    { "no_rescale", NO_RESCALE_TEXT, no_rescale_8 },
    { "no_rescale", NO_RESCALE_TEXT, no_rescale_16 },
    { "no_rescale", NO_RESCALE_TEXT, no_rescale_32 },
    { "no_rescale", NO_RESCALE_TEXT, no_rescale_64 },
    { "no_rescale", NO_RESCALE_TEXT, no_rescale_128 },
    { "not_normalized", "the output is not divided by the softmax sum",
      "at the end of the row, divide the accumulator by l", not_normalized },
};

static void coords(char *buf, size_t n, const judge_args *a, int p, size_t i)
{
    int H = a->ints[PH], T = a->ints[PT], D = a->ints[PD];
    size_t row = p == LSE ? i : i / (size_t)D;   /* lse has one element per query */
    int len = snprintf(buf, n, "b=%d, head %d, query %d", (int)(row / ((size_t)T * H)),
                       (int)(row / (size_t)T % (size_t)H), (int)(row % (size_t)T));
    if (p != LSE && len > 0 && (size_t)len < n) snprintf(buf + len, n - (size_t)len, ", dim %d", (int)(i % (size_t)D));
}

static int probe_len(const judge_args *a) { return a->ints[PS]; }

/* Move key and value j of batch 0, every head: a query that sees key j
 * changes, and no other. */
static void probe_perturb(judge_args *a, int j)
{
    judge_probe_kv(a, K, V, a->ints[PH], a->ints[PS], a->ints[PD], j);
}

static void probe_row(const judge_args *a, int i, size_t *start, size_t *n)
{
    judge_probe_rows(a->ints[PT], a->ints[PD], i, start, n);
}

const judge_ops judge_flash_ops = {
    "flash-attention", param_names, N_PARAMS, make_inputs, reference, mistakes,
    sizeof mistakes / sizeof mistakes[0], coords, probe_len, probe_perturb, probe_row,
};
