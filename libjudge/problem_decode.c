/* problem_decode.c: what the judge knows about exercise 52, one decode step
 * with a KV cache, beyond its data in problems/52-kv-cache-decode: how the
 * caches (with stale rows past each length) are made, the reference (the
 * core's), and the classic cache mistakes it can name. There is one query
 * per sequence, so there is no mask picture; the chapter's property
 * (decoding step by step equals prefill) is tested on the reference in
 * tests/ref_cache_test.c, and here every case starts from a cache already
 * filled by earlier steps, at a different length per sequence. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "att.h"
#include "form.h"
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
    if (c->negative) {   /* q <= 0 and every key >= 0: every score <= 0 */
        judge_sign(a->buf[Q], a->len[Q], -1);
        judge_sign(a->buf[K], a->len[K], 1);
        judge_sign(kc, a->len[KC], 1);
    }
}

static judge_status reference(void *const *outs, const judge_args *a)
{
    float *scratch = malloc(sizeof(float) * (size_t)a->ints[PS]);
    if (!scratch) return JUDGE_ENOMEM;
    /* outs[KC], outs[VC] and outs[LEN] arrive holding their inputs. */
    att_status st = att_decode_step_ref(outs[OUT], outs[KC], outs[VC], outs[LEN], a->buf[Q],
                                        a->buf[K], a->buf[V], a->ints[PB], a->ints[PS],
                                        a->ints[PH], a->ints[PD], scratch);
    free(scratch);
    return st == ATT_OK ? JUDGE_OK : JUDGE_EREFERENCE;
}

/* The step as the core does it fast, for the speed runs (speed.c): the new
 * row stored, then att_decode_simd (one thread) over the cache's rows 0 ..
 * n straight from the position-major layout, then the length advanced. */
static judge_status speed_core(void *const *outs, const judge_args *a)
{
    int B = a->ints[PB], S_max = a->ints[PS], H = a->ints[PH], D = a->ints[PD];
    size_t row = (size_t)H * D;
    float *scratch = malloc(sizeof(float) * (size_t)H * S_max);
    if (!scratch) return JUDGE_ENOMEM;
    int *len = outs[LEN];
    att_status st = ATT_OK;
    for (int b = 0; b < B && st == ATT_OK; b++) {
        if (len[b] < 0 || len[b] >= S_max) { st = ATT_EBADSHAPE; break; }
        float *kc = (float *)outs[KC] + (size_t)b * S_max * row, *vc = (float *)outs[VC] + (size_t)b * S_max * row;
        memcpy(kc + (size_t)len[b] * row, (const float *)a->buf[K] + b * row, row * sizeof(float));
        memcpy(vc + (size_t)len[b] * row, (const float *)a->buf[V] + b * row, row * sizeof(float));
        att_attn_desc d = { 1, len[b] + 1, H, H, D, 1, 0, 1.0f / sqrtf((float)D),
                            row, (size_t)D, row, (size_t)D, row, (size_t)D, 0 };
        st = att_decode_simd((float *)outs[OUT] + b * row, (const float *)a->buf[Q] + b * row, kc, vc,
                             NULL, &d, 1, scratch);
        len[b]++;
    }
    free(scratch);
    return st == ATT_OK ? JUDGE_OK : JUDGE_EREFERENCE;
}

/* ---- what mistaken code returns: the cache update with the knobs of the
 * problem's mistakes (problem.json), and the attention over the cache by the
 * shared form (form.c), the judge's model of wrong code (not a reference) ---- */

/* Copy heads h0 .. h1 - 1 of sequences b0 .. b1 - 1's new k and v (rows
 * [B, H, D]) into the cache of n floats at position at[b], laid out as the
 * view w says: at S_max, into the next sequence's row 0; past the cache,
 * nowhere (code that writes into the judge's guard there). */
static void store(float *cache, size_t n, const float *x, const form_view *w, const int *at, int b0, int b1,
                  int h0, int h1, int H, int D)
{
    for (int b = b0; b < b1; b++)
        for (int h = h0; h < h1; h++)
            for (int c = 0; c < D; c++) {
                ptrdiff_t e = (ptrdiff_t)b * w->sb + (ptrdiff_t)h * w->sh + (ptrdiff_t)at[b] * w->sp + c;
                if (e < (ptrdiff_t)n) cache[e] = x[((size_t)b * H + h) * D + c];
            }
}

static judge_status simulate(void *const *outs, const judge_args *a, const judge_changes *ch,
                             int variant)
{
    int B = a->ints[PB], S_max = a->ints[PS], H = a->ints[PH], D = a->ints[PD];
    float *kc = outs[KC], *vc = outs[VC];   /* they arrive holding their inputs */
    int *len = outs[LEN];
    size_t cache = (size_t)S_max * H * D, all = cache * B;
    int *n = malloc(sizeof(int) * 5 * (size_t)B), *keys = n + B, *at = keys + B, *hkeys = at + B, *hat = hkeys + B;
    /* Where the new row is read from when it is never stored: a copy. */
    float *kr = ch->cache_store == FORM_CACHE_STORE_NONE ? malloc(sizeof(float) * 2 * all) : NULL;
    if (!n || (ch->cache_store == FORM_CACHE_STORE_NONE && !kr)) {
        free(n);
        free(kr);
        return JUDGE_ENOMEM;
    }
    int head_major = ch->cache_layout == FORM_CACHE_LAYOUT_HEAD_MAJOR;
    int overlap = ch->cache_layout == FORM_CACHE_LAYOUT_BATCH_NO_H || ch->cache_layout == FORM_CACHE_LAYOUT_BATCH_NO_S;
    form_view w = { NULL, !overlap ? (ptrdiff_t)cache : (ptrdiff_t)D * (ch->cache_layout == FORM_CACHE_LAYOUT_BATCH_NO_H ? S_max : H),
                    head_major ? (ptrdiff_t)S_max * D : D,
                    head_major ? D : (ptrdiff_t)H * D, 1 };
    for (int b = 0; b < B; b++) {
        n[b] = ch->cache_lengths == FORM_CACHE_LENGTHS_FIRST ? len[0] : len[b];
        int seen = ch->cache_lengths == FORM_CACHE_LENGTHS_FIRST_ATTENDED ? len[0] : n[b];
        /* Code that advanced len first stores and attends as if one more row were cached. */
        int first = ch->cache_advance == FORM_CACHE_ADVANCE_FIRST;
        at[b] = n[b] + first;
        keys[b] = form_decode_keys(ch, seen + first, S_max);
    }
    float *ka = kc, *va = vc;
    if (kr) {
        memcpy(kr, kc, sizeof(float) * all);
        memcpy(kr + all, vc, sizeof(float) * all);
        ka = kr;
        va = kr + all;
    }
    int store_k = ch->cache_store == FORM_CACHE_STORE_RIGHT || ch->cache_store == FORM_CACHE_STORE_NONE
                  || ch->cache_store == FORM_CACHE_STORE_K_ONLY;
    int store_v = ch->cache_store == FORM_CACHE_STORE_RIGHT || ch->cache_store == FORM_CACHE_STORE_NONE;
    /* The batch stored, then attended; but sequences that overlap in the
     * cache one by one, each stored and attended before the next is, as the
     * code does (which sees the rows the next one then overwrites). Code
     * whose heads each read len[b] and advance it (per_head_read) goes so
     * too, and head by head, head h a row further on: past S_max, into the
     * next sequence's rows (position-major, they follow on). */
    int per_head = ch->cache_advance == FORM_CACHE_ADVANCE_PER_HEAD_READ;
    int step = overlap || per_head ? 1 : B, hstep = per_head ? 1 : H;
    judge_status st = JUDGE_OK;
    for (int b0 = 0; b0 < B && st == JUDGE_OK; b0 += step)
        for (int h0 = 0; h0 < H && st == JUDGE_OK; h0 += hstep) {
            int h1 = h0 + hstep, ahead = per_head ? h0 : 0;
            for (int b = b0; b < b0 + step; b++) hat[b] = at[b] + ahead, hkeys[b] = keys[b] + ahead;
            if (store_k) store(ka, all, a->buf[K], &w, hat, b0, b0 + step, h0, h1, H, D);
            if (store_v) store(va, all, a->buf[V], &w, hat, b0, b0 + step, h0, h1, H, D);
            form_view one = { NULL, (ptrdiff_t)H * D, D, 0, 1 };   /* [B, H, D]: one query per head */
            int rows = per_head && !overlap && !head_major ? (B - b0) * S_max : S_max;
            form_attn f = { .B = step, .H = hstep, .Hkv = hstep, .T = 1, .S = rows, .D = D, .kv_len = hkeys + b0 };
            f.q = one;
            f.q.p = (float *)a->buf[Q] + (size_t)b0 * H * D + (size_t)h0 * D;
            f.out = one;
            f.out.p = (float *)outs[OUT] + (size_t)b0 * H * D + (size_t)h0 * D;
            f.k = w;
            f.k.p = ka + b0 * w.sb + h0 * w.sh;
            f.v = w;
            f.v.p = va + b0 * w.sb + h0 * w.sh;
            st = form_decode_attention(&f, ch, variant, a->buf[KC], a->buf[VC]);
            if (ch->cache_store == FORM_CACHE_STORE_AFTER_ATTEND) {
                store(kc, all, a->buf[K], &w, hat, b0, b0 + step, h0, h1, H, D);
                store(vc, all, a->buf[V], &w, hat, b0, b0 + step, h0, h1, H, D);
            }
        }
    for (int b = 0; b < B && ch->cache_empty; b++) {   /* an empty cache short-cut: its rows as they came */
        if (n[b]) continue;
        memcpy(kc + (size_t)b * cache, (const float *)a->buf[KC] + (size_t)b * cache, sizeof(float) * cache);
        memcpy(vc + (size_t)b * cache, (const float *)a->buf[VC] + (size_t)b * cache, sizeof(float) * cache);
    }
    for (int b = 0; b < B; b++)
        len[b] = ch->cache_empty && !n[b] ? 0 : n[b] + (ch->cache_advance == FORM_CACHE_ADVANCE_NONE ? 0
                         : ch->cache_advance == FORM_CACHE_ADVANCE_FIRST ? 1
                         : ch->cache_advance == FORM_CACHE_ADVANCE_TWICE ? 2
                         : ch->cache_advance == FORM_CACHE_ADVANCE_PER_HEAD
                           || ch->cache_advance == FORM_CACHE_ADVANCE_PER_HEAD_READ ? H : 1);
    free(n);
    free(kr);
    return st;
}

static void coords(char *buf, size_t n, const judge_args *a, int p, size_t i, judge_lang lang)
{
    int S_max = a->ints[PS], H = a->ints[PH], D = a->ints[PD];
    int c = (int)(i % (size_t)D), h = (int)(i / (size_t)D % (size_t)H);
    buf[0] = 0;
    if (p == LEN) {
        judge_coord(buf, n, lang, JUDGE_MSG_AXIS_B, (int)i);
        return;
    }
    if (p == KC || p == VC) {   /* [B, S_max, H, D] */
        judge_coord(buf, n, lang, JUDGE_MSG_AXIS_B, (int)(i / ((size_t)D * H * S_max)));
        judge_coord(buf, n, lang, JUDGE_MSG_AXIS_POS, (int)(i / ((size_t)D * H) % (size_t)S_max));
    } else {
        judge_coord(buf, n, lang, JUDGE_MSG_AXIS_B, (int)(i / ((size_t)D * H)));
    }
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_H, h);
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_C, c);
}

const judge_ops judge_decode_ops = {
    "kv-cache-decode", param_names, N_PARAMS, make_inputs, reference, simulate, coords, speed_core,
    form_variants,   /* its attention is the form's, with the form's ways */
};
