/* problem_sink.c: what the judge knows about exercise 53, attention sinks
 * (StreamingLLM), beyond its data in problems/53-attention-sinks: how its
 * inputs are made, the reference (the core's), the classic mistakes of the
 * sinks-plus-window mask it can name, and the probe that draws which keys
 * reach which queries (the band of the window plus the sink columns). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "att.h"
#include "judge.h"

enum { OUT, Q, K, V, PB, PH, PT, PD, PSINK, PW, N_PARAMS };

static const char *const param_names[N_PARAMS] = {
    "out", "q", "k", "v", "B", "H", "T", "D", "n_sink", "window",
};

/* q, k ~ U[-2, 2), v ~ U[-1, 1): scores near unit size; the case's scale
 * multiplies q, for scores that overflow expf() without the max. */
static void make_inputs(judge_args *a, const judge_case *c, uint64_t seed, int case_index)
{
    uint64_t stream = (uint64_t)case_index << 8;
    att_fill_uniform(a->buf[Q], a->len[Q], seed, stream + Q, 2.0f * c->scale);
    att_fill_uniform(a->buf[K], a->len[K], seed, stream + K, 2.0f);
    att_fill_uniform(a->buf[V], a->len[V], seed, stream + V, 1.0f);
}

static void reference(void *const *outs, const judge_args *a)
{
    float *scratch = malloc(sizeof(float) * (size_t)a->ints[PT]);
    if (!scratch) abort();   /* the judge's own sizes are small; nothing to recover */
    att_status st = att_sink_ref(outs[OUT], a->buf[Q], a->buf[K], a->buf[V], a->ints[PB],
                                 a->ints[PH], a->ints[PT], a->ints[PD], a->ints[PSINK],
                                 a->ints[PW], scratch);
    free(scratch);
    if (st != ATT_OK) abort();   /* problem.json's sizes are valid */
}

/* ---- the classic mistakes, simulated ----
 * One plain float implementation with a flag per mistake. Each key gets a
 * multiplicity: 0 unseen, 1 seen, 2 when a learner's two loops (sinks, then
 * window) both visit it. */
enum {
    NO_SINKS = 1 << 0, SINK_FUTURE = 1 << 1, WIN_PLUS_ONE = 1 << 2, TWICE = 1 << 3,
    NO_WINDOW = 1 << 4, NO_SCALE = 1 << 5, NO_MAX = 1 << 6,
};

static int times_seen(int i, int j, int n_sink, int W, int f)
{
    int sink = !(f & NO_SINKS) && j < n_sink && (f & SINK_FUTURE || j <= i);
    int lo = f & NO_WINDOW ? 0 : f & WIN_PLUS_ONE ? i - W : i - W + 1;
    int recent = j >= lo && j <= i;
    if (f & TWICE) return sink + recent;
    return sink || recent;
}

static void sink_with(void *const *outs, const judge_args *a, int f)
{
    int BH = a->ints[PB] * a->ints[PH], T = a->ints[PT], D = a->ints[PD];
    int n_sink = a->ints[PSINK], W = a->ints[PW];
    const float *q = a->buf[Q], *k = a->buf[K], *v = a->buf[V];
    float *out = outs[OUT], scale = f & NO_SCALE ? 1.0f : 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * (size_t)T);
    if (!p) abort();
    for (int bh = 0; bh < BH; bh++) {
        const float *qb = q + (size_t)bh * T * D, *kb = k + (size_t)bh * T * D, *vb = v + (size_t)bh * T * D;
        for (int i = 0; i < T; i++) {
            float max = -INFINITY, sum = 0.0f;
            for (int j = 0; j < T; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qb[i * D + c] * kb[j * D + c];
                p[j] = s * scale;
                if (times_seen(i, j, n_sink, W, f) && p[j] > max) max = p[j];
            }
            for (int j = 0; j < T; j++) {
                int m = times_seen(i, j, n_sink, W, f);
                p[j] = m ? m * expf(f & NO_MAX ? p[j] : p[j] - max) : 0.0f;
                sum += p[j];
            }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j < T; j++) acc += p[j] * vb[j * D + c];
                out[((size_t)bh * T + i) * D + c] = acc / sum;
            }
        }
    }
    free(p);
}

#define MISTAKE(fn, flags) \
    static void fn(void *const *outs, const judge_args *a) { sink_with(outs, a, flags); }
MISTAKE(no_sinks, NO_SINKS)
MISTAKE(sinks_see_future, SINK_FUTURE)
MISTAKE(window_off_by_one, WIN_PLUS_ONE)
MISTAKE(sink_counted_twice, TWICE)
MISTAKE(window_ignored, NO_WINDOW)
MISTAKE(no_scale, NO_SCALE)
MISTAKE(softmax_overflow, NO_MAX)

static const judge_mistake mistakes[] = {
    { "no_sinks", "the sinks are missing: a plain sliding window",
      "the first n_sink keys stay visible to every later query, however far back", no_sinks },
    { "sinks_see_future", "early queries see sink keys from their future",
      "a sink is still causal: query i sees sink j only when j <= i", sinks_see_future },
    { "window_off_by_one", "the window holds W + 1 recent keys instead of W",
      "query i sees the recent keys i - W < j <= i: W keys, itself included", window_off_by_one },
    { "sink_counted_twice", "a key that is both a sink and recent is counted twice in the softmax",
      "the keys seen form a set: a sink inside the window counts once", sink_counted_twice },
    { "window_ignored", "the window is ignored: every past key is seen (plain causal)",
      "besides the sinks, only the W most recent keys (itself included) are kept", window_ignored },
    { "no_scale", "the scores are not scaled by 1/sqrt(D)",
      "divide q.k by sqrt(D) before the softmax", no_scale },
    { "softmax_overflow", "the softmax overflows: exp() of large scores without subtracting the max",
      "subtract the row's maximum score (over the keys seen) before exp()", softmax_overflow },
};

static void coords(char *buf, size_t n, const judge_args *a, int p, size_t i)
{
    (void)p;
    int H = a->ints[PH], T = a->ints[PT], D = a->ints[PD];
    snprintf(buf, n, "b=%d, head %d, t=%d, dim %d", (int)(i / ((size_t)D * T * H)),
             (int)(i / ((size_t)D * T) % (size_t)H), (int)(i / (size_t)D % (size_t)T),
             (int)(i % (size_t)D));
}

static int probe_len(const judge_args *a) { return a->ints[PT]; }

/* Move key and value j of batch 0, every head: a query that sees key j
 * changes, and no other (its own query is left alone). */
static void probe_perturb(judge_args *a, int j)
{
    judge_probe_kv(a, K, V, a->ints[PH], a->ints[PT], a->ints[PD], j);
}

static void probe_row(const judge_args *a, int i, size_t *start, size_t *n)
{
    judge_probe_rows(a->ints[PT], a->ints[PD], i, start, n);
}

const judge_ops judge_sink_ops = {
    "attention-sinks", param_names, N_PARAMS, make_inputs, reference, mistakes,
    sizeof mistakes / sizeof mistakes[0], coords, probe_len, probe_perturb, probe_row,
};
