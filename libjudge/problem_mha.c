/* problem_mha.c: what the judge knows about exercise 49, causal multi-head
 * attention, beyond its data in problems/49-causal-mha: how its hidden inputs
 * are made, its reference (the core's), the classic mistakes it can name, and
 * how to probe which keys reach which queries. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    int B = a->ints[PB], T = a->ints[PT], d = a->ints[PD];
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
    unsigned char *mask = a->buf[MASK];
    if (!mask) return;
    for (int b = 0; b < B; b++) {
        /* Batches pad different amounts: batch b pads (b + 1) * T / (B + 2). */
        int pad = (b + 1) * T / (B + 2);
        for (int t = 0; t < T; t++) {
            unsigned char real = 1;
            if (!strcmp(c->mask, "right")) real = t < T - pad;
            else if (!strcmp(c->mask, "left")) real = t >= pad;
            else if (!strcmp(c->mask, "random"))
                real = (att_rng_u64(seed, stream + MASK, (uint64_t)(b * T + t)) & 3) != 0;
            mask[b * T + t] = real;
        }
    }
}

static void reference(void *const *outs, const judge_args *a)
{
    /* The core's fast path (att_mha_simd), held to att_mha_ref by
     * tests/kernels_test.c well inside this problem's tolerance. One thread:
     * the learner's code runs on one, and "your time vs the reference"
     * compares like with like; the result does not depend on it. */
    int T = a->ints[PT], d = a->ints[PD], H = a->ints[PH];
    size_t n = att_mha_simd_scratch_floats(T, d, H, 1);
    float *scratch = malloc((n ? n : 1) * sizeof(float));
    if (!scratch) abort();   /* the judge's own sizes are small; nothing to recover */
    att_mha_simd(outs[OUT], a->buf[X], a->buf[WQ], a->buf[WK], a->buf[WV], a->buf[WO],
                 a->buf[MASK], a->ints[PB], T, d, H, a->ints[PCAUSAL], 1, scratch);
    free(scratch);
}

/* ---- the classic mistakes, simulated ----
 * One plain float implementation, as a learner would write it, with a flag
 * for each mistake; it is the judge's model of wrong code, not a reference. */
enum {
    NO_SCALE = 1 << 0, SCALE_D = 1 << 1, NO_CAUSAL = 1 << 2, DIAGONAL = 1 << 3,
    ALWAYS_CAUSAL = 1 << 4, NO_PADDING = 1 << 5, PAD_QUERIES = 1 << 6,
    NAN_EMPTY = 1 << 7, TRANSPOSED = 1 << 8, STRIDE = 1 << 9, NO_WO = 1 << 10,
    NO_MAX = 1 << 11,
};

static void project(float *y, const float *x, const float *w, int T, int d, int transposed)
{
    for (int t = 0; t < T; t++)
        for (int o = 0; o < d; o++) {
            float s = 0.0f;
            for (int i = 0; i < d; i++)
                s += x[t * d + i] * (transposed ? w[o * d + i] : w[i * d + o]);
            y[t * d + o] = s;
        }
}

static void mha_with(float *out, const judge_args *a, int f)
{
    int B = a->ints[PB], T = a->ints[PT], d = a->ints[PD], H = a->ints[PH];
    int D = d / H, causal = f & ALWAYS_CAUSAL ? 1 : a->ints[PCAUSAL] && !(f & NO_CAUSAL);
    const unsigned char *mask = a->buf[MASK];
    float scale = f & NO_SCALE ? 1.0f : 1.0f / sqrtf((float)(f & SCALE_D ? d : D));
    float *q = malloc(sizeof(float) * ((size_t)4 * T * d + T));
    if (!q) abort();
    float *k = q + T * d, *v = k + T * d, *cat = v + T * d, *p = cat + T * d;
    for (int b = 0; b < B; b++) {
        const float *xb = (const float *)a->buf[X] + b * T * d;
        const unsigned char *mb = mask ? mask + b * T : NULL;
        project(q, xb, a->buf[WQ], T, d, f & TRANSPOSED);
        project(k, xb, a->buf[WK], T, d, f & TRANSPOSED);
        project(v, xb, a->buf[WV], T, d, f & TRANSPOSED);
        for (int h = 0; h < H; h++) {
            /* Feature c of head h: contiguous block, or (STRIDE) every H-th. */
#define FEAT(c) (f & STRIDE ? (c) * H + h : h * D + (c))
            for (int i = 0; i < T; i++) {
                float max = -INFINITY, sum = 0.0f;
                int seen = 0;
                for (int j = 0; j < T; j++) {
                    int ok = !causal || (f & DIAGONAL ? j < i : j <= i);
                    if (mb && !(f & NO_PADDING) && !(f & PAD_QUERIES) && !mb[j]) ok = 0;
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += q[i * d + FEAT(c)] * k[j * d + FEAT(c)];
                    p[j] = ok ? s * scale : -INFINITY;
                    if (p[j] > max) max = p[j];
                    seen += ok;
                }
                for (int j = 0; j < T; j++) {
                    p[j] = p[j] == -INFINITY ? 0.0f : expf(f & NO_MAX ? p[j] : p[j] - max);
                    sum += p[j];
                }
                int silent = mb && (f & PAD_QUERIES) && !mb[i];
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j < T; j++) acc += p[j] * v[j * d + FEAT(c)];
                    float o = seen ? acc / sum : (f & NAN_EMPTY ? NAN : 0.0f);
                    cat[i * d + FEAT(c)] = silent ? 0.0f : o;
                }
            }
#undef FEAT
        }
        float *ob = out + b * T * d;
        if (f & NO_WO) memcpy(ob, cat, sizeof(float) * T * d);
        else project(ob, cat, a->buf[WO], T, d, f & TRANSPOSED);
    }
    free(q);
}

#define MISTAKE(fn, flags) \
    static void fn(void *const *outs, const judge_args *a) { mha_with(outs[OUT], a, flags); }
MISTAKE(no_scale, NO_SCALE)
MISTAKE(scale_sqrt_d, SCALE_D)
MISTAKE(no_causal_mask, NO_CAUSAL)
MISTAKE(diagonal_masked, DIAGONAL)
MISTAKE(causal_flag_ignored, ALWAYS_CAUSAL)
MISTAKE(padding_ignored, NO_PADDING)
MISTAKE(padding_on_queries, PAD_QUERIES)
MISTAKE(nan_empty_row, NAN_EMPTY)
MISTAKE(weights_transposed, TRANSPOSED)
MISTAKE(head_stride, STRIDE)
MISTAKE(no_o_proj, NO_WO)
MISTAKE(softmax_overflow, NO_MAX)

static const judge_mistake mistakes[] = {
    { "no_scale", "the scores are not scaled by 1/sqrt(D)",
      "divide q.k by sqrt(D), D = d / n_heads, before the softmax", no_scale },
    { "scale_sqrt_d", "the scores are scaled by 1/sqrt(d) instead of 1/sqrt(D)",
      "the scale uses the head dim D = d / n_heads, not the model dim d", scale_sqrt_d },
    { "no_causal_mask", "no causal mask: queries see future keys",
      "with causal = 1, query i may only see keys j <= i", no_causal_mask },
    { "diagonal_masked", "the causal mask hides the diagonal: query i cannot see key i",
      "the condition is j <= i, not j < i: a token attends to itself", diagonal_masked },
    { "causal_flag_ignored", "the causal flag is ignored: the mask is applied even when causal = 0",
      "mask the future only when causal is non-zero", causal_flag_ignored },
    { "padding_ignored", "the key padding mask is ignored",
      "when mask is not NULL, a key j with mask[b*T + j] == 0 is seen by no query", padding_ignored },
    { "padding_on_queries", "the padding mask is applied to queries instead of keys",
      "mask the key positions (columns of the scores), and let every query attend", padding_on_queries },
    { "nan_empty_row", "a query that sees no key gives NaN instead of zeros",
      "when every score of a row is masked, output zeros (guard the 0/0 of the softmax)", nan_empty_row },
    { "weights_transposed", "the weights are used transposed (x . W^T instead of x . W)",
      "weights are [d, d] and right-multiplied: q[t][j] = sum_i x[t][i] * wq[i*d + j]", weights_transposed },
    { "head_stride", "the heads are split with the wrong stride",
      "head h owns the contiguous features h*D .. h*D + D - 1, not every n_heads-th one", head_stride },
    { "no_o_proj", "the output projection wo is missing",
      "concatenate the heads, then multiply by wo", no_o_proj },
    { "softmax_overflow", "the softmax overflows: exp() of large scores without subtracting the max",
      "subtract the row's maximum score before exp(); the result is the same, without inf/inf", softmax_overflow },
};

static void coords(char *buf, size_t n, const judge_args *a, int p, size_t i)
{
    (void)p;
    int T = a->ints[PT], d = a->ints[PD], D = d / a->ints[PH];
    int f = (int)(i % (size_t)d), t = (int)(i / (size_t)d % (size_t)T), b = (int)(i / ((size_t)d * T));
    snprintf(buf, n, "b=%d, t=%d, feature %d (head %d, dim %d)", b, t, f, f / D, f % D);
}

static int probe_len(const judge_args *a) { return a->ints[PT]; }

/* Move the token at position j of batch 0; a query that sees key j changes. */
static void probe_perturb(judge_args *a, int j)
{
    int d = a->ints[PD];
    float *x = a->buf[X];
    for (int c = 0; c < d; c++) x[j * d + c] += 0.5f;
}

static void probe_row(const judge_args *a, int i, size_t *start, size_t *n)
{
    *n = (size_t)a->ints[PD];
    *start = (size_t)i * *n;
}

const judge_ops judge_mha_ops = {
    "causal-mha", param_names, N_PARAMS, make_inputs, reference, mistakes, sizeof mistakes / sizeof mistakes[0],
    coords, probe_len, probe_perturb, probe_row,
};
