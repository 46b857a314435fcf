/* problem_window.c: what the judge knows about exercise 50, sliding-window
 * attention, beyond its data in problems/50-sliding-window: its hidden inputs,
 * its reference (the core's att_window_ref per batch and head), the classic
 * mistakes it can name, and the probe that pictures the window (the band
 * i - W < j <= i). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "att.h"
#include "judge.h"

enum { OUT, Q, K, V, PB, PH, PT, PD, PW, N_PARAMS };

static const char *const param_names[N_PARAMS] = {
    "out", "q", "k", "v", "B", "H", "T", "D", "W",
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
    int B = a->ints[PB], H = a->ints[PH], T = a->ints[PT], D = a->ints[PD];
    float *scratch = malloc(sizeof(float) * (size_t)T);
    if (!scratch) abort();   /* the judge's own sizes are small; nothing to recover */
    for (int bh = 0; bh < B * H; bh++) {
        size_t o = (size_t)bh * T * D;
        att_window_ref((float *)outs[OUT] + o, D, (const float *)a->buf[Q] + o,
                       (const float *)a->buf[K] + o, (const float *)a->buf[V] + o, D, T, D,
                       a->ints[PW], 1.0f / sqrtf((float)D), scratch);
    }
    free(scratch);
}

/* ---- the classic mistakes, simulated: one plain float implementation with a
 * flag for each, the judge's model of wrong code (not a reference) ---- */
enum { WIDE = 1, NO_SELF = 2, NO_WINDOW = 4, BAND = 8, NO_SCALE = 16 };

/* Does query i see key j under the (possibly mistaken) rule f? */
static int sees(int i, int j, int W, int f)
{
    if (f & NO_WINDOW) return j <= i;
    if (f & BAND) return j > i - W && j < i + W;      /* |i - j| < W: sees the future */
    if (f & WIDE) return j >= i - W && j <= i;        /* W + 1 keys */
    if (f & NO_SELF) return j >= i - W && j < i;      /* the W keys before i, not i */
    return j > i - W && j <= i;
}

static void window_with(void *const *outs, const judge_args *a, int f)
{
    int B = a->ints[PB], H = a->ints[PH], T = a->ints[PT], D = a->ints[PD], W = a->ints[PW];
    float scale = f & NO_SCALE ? 1.0f : 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * (size_t)T);
    if (!p) abort();
    for (int bh = 0; bh < B * H; bh++) {
        const float *q = (const float *)a->buf[Q] + (size_t)bh * T * D;
        const float *k = (const float *)a->buf[K] + (size_t)bh * T * D;
        const float *v = (const float *)a->buf[V] + (size_t)bh * T * D;
        float *o = (float *)outs[OUT] + (size_t)bh * T * D;
        for (int i = 0; i < T; i++) {
            float max = -INFINITY, sum = 0.0f;
            for (int j = 0; j < T; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += q[i * D + c] * k[j * D + c];
                p[j] = sees(i, j, W, f) ? s * scale : -INFINITY;
                max = fmaxf(max, p[j]);
            }
            for (int j = 0; j < T; j++) {
                p[j] = p[j] == -INFINITY ? 0.0f : expf(p[j] - max);
                sum += p[j];
            }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j < T; j++) acc += p[j] * v[j * D + c];
                o[i * D + c] = sum > 0.0f ? acc / sum : 0.0f;   /* NO_SELF: query 0 sees nothing */
            }
        }
    }
    free(p);
}

#define MISTAKE(fn, flags) \
    static void fn(void *const *outs, const judge_args *a) { window_with(outs, a, flags); }
MISTAKE(window_off_by_one, WIDE)
MISTAKE(window_excludes_self, NO_SELF)
MISTAKE(no_window, NO_WINDOW)
MISTAKE(window_not_causal, BAND)
MISTAKE(no_scale, NO_SCALE)

static const judge_mistake mistakes[] = {
    { "window_off_by_one", "the window holds W + 1 keys: query i sees keys i - W .. i",
      "query i sees the W keys j with i - W < j <= i (strictly greater than i - W)",
      window_off_by_one },
    { "window_excludes_self", "the window is shifted: query i sees the W keys before it, not itself",
      "the window ends at the query itself: i - W < j <= i, so W = 1 sees only key i",
      window_excludes_self },
    { "no_window", "the window is missing: plain causal attention over every earlier key",
      "besides j <= i, drop the keys j <= i - W", no_window },
    { "window_not_causal", "the window is a band |i - j| < W: queries see future keys",
      "the window lies behind the query only: i - W < j <= i", window_not_causal },
    { "no_scale", "the scores are not scaled by 1/sqrt(D)",
      "divide q.k by sqrt(D) before the softmax", no_scale },
};

static void coords(char *buf, size_t n, const judge_args *a, int p, size_t i)
{
    (void)p;
    size_t H = (size_t)a->ints[PH], T = (size_t)a->ints[PT], D = (size_t)a->ints[PD];
    size_t r = i / D;
    snprintf(buf, n, "b=%zu, head %zu, t=%zu, dim %zu", r / T / H, r / T % H, r % T, i % D);
}

/* Perturb key and value j of batch 0 in every head; watch head 0's queries. */
static int probe_len(const judge_args *a) { return a->ints[PT]; }

static void probe_perturb(judge_args *a, int j)
{
    judge_probe_kv(a, K, V, a->ints[PH], a->ints[PT], a->ints[PD], j);
}

static void probe_row(const judge_args *a, int i, size_t *start, size_t *n)
{
    judge_probe_rows(a->ints[PT], a->ints[PD], i, start, n);
}

const judge_ops judge_window_ops = {
    "sliding-window", param_names, N_PARAMS, make_inputs, reference, mistakes,
    sizeof mistakes / sizeof mistakes[0], coords, probe_len, probe_perturb, probe_row,
};
