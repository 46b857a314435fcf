/* problem_decode.c: what the judge knows about exercise 52, one decode step
 * with a KV cache, beyond its data in problems/52-kv-cache-decode: how the
 * caches (with stale rows past each length) are made, the reference (the
 * core's), and the classic cache mistakes it can name. There is one query
 * per sequence, so there is no mask picture; the chapter's property
 * (decoding step by step equals prefill) is tested on the reference in
 * tests/ref_cache_test.c, and here every case starts from a cache already
 * filled by earlier steps, at a different length per sequence. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "att.h"
#include "judge.h"

enum { OUT, KC, VC, LEN, Q, K, V, PB, PS, PH, PD, N_PARAMS };

static const char *const param_names[N_PARAMS] = {
    "out", "k_cache", "v_cache", "len", "q", "k", "v", "B", "S_max", "H", "D",
};

/* Lengths differ per sequence and hit both ends: sequence 0 fills the last
 * free slot, sequence 1 starts from an empty cache, the rest are random. The
 * rows past each length hold stale values (a longer sequence that used the
 * cache before), larger than the real ones so that attending to them shows.
 * The case's scale multiplies q: scores large enough to overflow expf(). */
static void make_inputs(judge_args *a, const judge_case *c, uint64_t seed, int case_index)
{
    int B = a->ints[PB], S_max = a->ints[PS];
    size_t row = (size_t)a->ints[PH] * a->ints[PD];
    uint64_t stream = (uint64_t)case_index << 8;
    float *kc = a->buf[KC], *vc = a->buf[VC];
    int *len = a->buf[LEN];
    for (int b = 0; b < B; b++) {
        len[b] = b == 0 ? S_max - 1 : b == 1 ? 0
               : (int)(att_rng_u64(seed, stream + LEN, (uint64_t)b) % (uint64_t)S_max);
        size_t at = (size_t)b * S_max * row, real = (size_t)len[b] * row;
        att_fill_uniform(kc + at, (size_t)S_max * row, seed, stream + KC + ((uint64_t)b << 4), 1.0f);
        att_fill_uniform(vc + at, (size_t)S_max * row, seed, stream + VC + ((uint64_t)b << 4), 1.0f);
        for (size_t i = real; i < (size_t)S_max * row; i++) {
            kc[at + i] *= 3.0f;
            vc[at + i] = vc[at + i] * 4.0f + 2.0f;
        }
    }
    att_fill_uniform(a->buf[Q], a->len[Q], seed, stream + Q, 2.0f * c->scale);
    att_fill_uniform(a->buf[K], a->len[K], seed, stream + K, 2.0f);
    att_fill_uniform(a->buf[V], a->len[V], seed, stream + V, 1.0f);
}

static void reference(void *const *outs, const judge_args *a)
{
    float *scratch = malloc(sizeof(float) * (size_t)a->ints[PS]);
    if (!scratch) abort();   /* the judge's own sizes are small; nothing to recover */
    /* outs[KC], outs[VC] and outs[LEN] arrive holding their inputs. */
    att_status st = att_decode_step_ref(outs[OUT], outs[KC], outs[VC], outs[LEN], a->buf[Q],
                                        a->buf[K], a->buf[V], a->ints[PB], a->ints[PS],
                                        a->ints[PH], a->ints[PD], scratch);
    free(scratch);
    if (st != ATT_OK) abort();   /* make_inputs never makes a full cache */
}

/* ---- the classic mistakes, simulated ----
 * One plain float implementation with a flag per mistake: the judge's model
 * of wrong code, not a reference. */
enum {
    SKIP_NEW = 1 << 0, PAST_LEN = 1 << 1, NO_STORE = 1 << 2, NO_ADVANCE = 1 << 3,
    HEAD_MAJOR = 1 << 4, NO_SCALE = 1 << 5, ONE_LEN = 1 << 6, NO_MAX = 1 << 7,
};

static void decode_with(void *const *outs, const judge_args *a, int f)
{
    int B = a->ints[PB], S_max = a->ints[PS], H = a->ints[PH], D = a->ints[PD];
    float *out = outs[OUT], *kc = outs[KC], *vc = outs[VC];
    int *len = outs[LEN];
    const float *q = a->buf[Q], *k = a->buf[K], *v = a->buf[V];
    float scale = f & NO_SCALE ? 1.0f : 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * (size_t)S_max);
    if (!p) abort();
    int len0 = len[0];
    for (int b = 0; b < B; b++) {
        int n = f & ONE_LEN ? len0 : len[b];
        /* Position pos, head h of sequence b: [S_max, H, D] or (HEAD_MAJOR) [H, S_max, D]. */
#define AT(pos, h) ((size_t)b * S_max * H * D + \
                    (f & HEAD_MAJOR ? ((size_t)(h) * S_max + (pos)) * D : ((size_t)(pos) * H + (h)) * D))
        if (!(f & NO_STORE))
            for (int h = 0; h < H; h++) {
                memcpy(kc + AT(n, h), k + ((size_t)b * H + h) * D, sizeof(float) * D);
                memcpy(vc + AT(n, h), v + ((size_t)b * H + h) * D, sizeof(float) * D);
            }
        int keys = f & SKIP_NEW ? n : f & PAST_LEN ? S_max : n + 1;
        for (int h = 0; h < H; h++) {
            const float *qi = q + ((size_t)b * H + h) * D;
            float max = -INFINITY, sum = 0.0f;
            for (int j = 0; j < keys; j++) {
                /* NO_STORE reads the new token from k, v themselves. */
                const float *kj = f & NO_STORE && j == n ? k + ((size_t)b * H + h) * D : kc + AT(j, h);
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qi[c] * kj[c];
                p[j] = s * scale;
                if (p[j] > max) max = p[j];
            }
            for (int j = 0; j < keys; j++) {
                p[j] = expf(f & NO_MAX ? p[j] : p[j] - max);
                sum += p[j];
            }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j < keys; j++) {
                    const float *vj = f & NO_STORE && j == n ? v + ((size_t)b * H + h) * D : vc + AT(j, h);
                    acc += p[j] * vj[c];
                }
                out[((size_t)b * H + h) * D + c] = keys ? acc / sum : 0.0f;
            }
        }
#undef AT
    }
    for (int b = 0; b < B; b++)
        if (!(f & NO_ADVANCE)) len[b] = (f & ONE_LEN ? len0 : len[b]) + 1;
    free(p);
}

#define MISTAKE(fn, flags) \
    static void fn(void *const *outs, const judge_args *a) { decode_with(outs, a, flags); }
MISTAKE(new_token_not_attended, SKIP_NEW)
MISTAKE(attends_past_length, PAST_LEN)
MISTAKE(cache_not_written, NO_STORE)
MISTAKE(length_not_advanced, NO_ADVANCE)
MISTAKE(cache_layout_head_major, HEAD_MAJOR)
MISTAKE(no_scale, NO_SCALE)
MISTAKE(one_length_for_batch, ONE_LEN)
MISTAKE(softmax_overflow, NO_MAX)

static const judge_mistake mistakes[] = {
    { "new_token_not_attended", "the new token does not attend to itself: only the len old keys are used",
      "append k, v at row len first, then attend over rows 0 .. len (len + 1 keys)",
      new_token_not_attended },
    { "attends_past_length", "the query attends over the whole cache, stale rows past the length included",
      "only rows 0 .. len[b] are this sequence's tokens; the rest is left over from before",
      attends_past_length },
    { "cache_not_written", "the new key and value are not stored in the cache",
      "write k and v into k_cache and v_cache at row len[b]: the next step needs them",
      cache_not_written },
    { "length_not_advanced", "the cache length is not advanced",
      "after appending, len[b] must be len[b] + 1", length_not_advanced },
    { "cache_layout_head_major", "the cache is indexed head-major [H, S_max, D] instead of [S_max, H, D]",
      "row pos of sequence b starts at ((b * S_max + pos) * H + h) * D", cache_layout_head_major },
    { "no_scale", "the scores are not scaled by 1/sqrt(D)",
      "divide q.k by sqrt(D) before the softmax", no_scale },
    { "one_length_for_batch", "every sequence uses the first sequence's length",
      "each sequence b has its own length len[b]: append and attend at its own position",
      one_length_for_batch },
    { "softmax_overflow", "the softmax overflows: exp() of large scores without subtracting the max",
      "subtract the row's maximum score before exp()", softmax_overflow },
};

static void coords(char *buf, size_t n, const judge_args *a, int p, size_t i)
{
    int S_max = a->ints[PS], H = a->ints[PH], D = a->ints[PD];
    int c = (int)(i % (size_t)D), h = (int)(i / (size_t)D % (size_t)H);
    if (p == LEN) snprintf(buf, n, "b=%zu", i);
    else if (p == KC || p == VC)
        snprintf(buf, n, "b=%d, pos %d, head %d, dim %d", (int)(i / ((size_t)D * H * S_max)),
                 (int)(i / ((size_t)D * H) % (size_t)S_max), h, c);
    else snprintf(buf, n, "b=%d, head %d, dim %d", (int)(i / ((size_t)D * H)), h, c);
}

const judge_ops judge_decode_ops = {
    "kv-cache-decode", param_names, N_PARAMS, make_inputs, reference, mistakes,
    sizeof mistakes / sizeof mistakes[0], coords, NULL, NULL, NULL,
};
