/* problem_int8.c: what the judge knows about exercise 64, one decode step
 * over a KV cache stored as symmetric int8 per (position, head), beyond its
 * data in problems/64-int8-kv-cache: how the quantised caches (with stale
 * rows past each length) and the new token are made, the reference (the
 * core's), and the quantisation and cache mistakes it can name. As in
 * exercise 52 there is one query per sequence, so no mask picture; the
 * property (the step equals exercise 52's over the dequantised cache) is
 * tested on the reference in tests/ref_int8_test.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "att.h"
#include "form.h"
#include "judge.h"

enum { OUT, KQ, VQ, KS, VS, LEN, Q, K, V, PB, PS, PH, PD, N_PARAMS };

static const char *const param_names[N_PARAMS] = {
    "out", "k_q", "v_q", "k_scale", "v_scale", "len", "q", "k", "v", "B", "S_max", "H", "D",
};

/* Keep x / scale (scale = max |x| / 127) at least 0.02 from a half, moving
 * x toward zero (the maximum itself sits at 127, far from one): any correct
 * way of writing the division (float or double, x * 127 / max) then rounds
 * every element alike, and roundf and lrintf agree (no ties). */
static void away_from_halves(float *x, int n)
{
    float top = 0.0f;
    for (int i = 0; i < n; i++) top = fmaxf(top, fabsf(x[i]));
    float s = top / 127.0f;
    for (int i = 0; s > 0.0f && i < n; i++) {
        float t = fabsf(x[i]) / s, f = t - floorf(t);
        if (fabsf(f - 0.5f) < 0.02f) x[i] = copysignf((t - 0.04f) * s, x[i]);
    }
}

/* Lengths as in exercise 52: sequence 0 fills the last free slot, sequence 1
 * starts from an empty cache, the rest are random. Cached rows hold int8
 * values with scales that differ from row to row (so a wrong row's scale
 * shows); the stale rows past each length have larger scales, and their v
 * values are all positive, so that attending to them shows. The new token's
 * values are spread wide (v up to 4), so that its rounding error shows when
 * the float values are attended instead; with B > 1 the last sequence has a
 * zero k in head 0 and a zero v in head H - 1 (the zero-vector rule). The
 * case's scale multiplies q: scores large enough to overflow expf(). */
static void make_inputs(judge_args *a, const judge_case *c, uint64_t seed, int case_index)
{
    int B = a->ints[PB], S_max = a->ints[PS], H = a->ints[PH], D = a->ints[PD];
    size_t row = (size_t)H * D;
    uint64_t stream = (uint64_t)case_index << 8;
    int *len = a->buf[LEN];
    for (int b = 0; b < B; b++)
        len[b] = b == 0 ? S_max - 1 : b == 1 ? 0
               : (int)(att_rng_u64(seed, stream + LEN, (uint64_t)b) % (uint64_t)S_max);
    /* Row by row (sequence b, position pos): no division per element, of
     * which the speed case has 33 M. */
    for (int p = KQ; p <= VQ; p++) {
        signed char *q8 = a->buf[p];
        size_t i = 0;
        for (int b = 0; b < B; b++)
            for (int pos = 0; pos < S_max; pos++) {
                int stale = pos >= len[b];
                for (size_t e = 0; e < row; e++, i++) {
                    int x = (int)(att_rng_u64(seed, stream + (uint64_t)p, i) % 255) - 127;
                    q8[i] = (signed char)((stale && p == VQ) || (c->negative && p == KQ) ? abs(x) : x);
                }
            }
    }
    for (int p = KS; p <= VS; p++) {
        float *s = a->buf[p];
        att_fill_uniform(s, a->len[p], seed, stream + (uint64_t)p, 0.5f);
        size_t i = 0;
        for (int b = 0; b < B; b++)
            for (int pos = 0; pos < S_max; pos++)
                for (int h = 0; h < H; h++, i++)
                    s[i] = (1.5f + s[i]) / 127.0f * (p == KS ? 2.0f : 1.0f) * (pos >= len[b] ? 3.0f : 1.0f);
    }
    att_fill_uniform(a->buf[Q], a->len[Q], seed, stream + Q, 2.0f * c->scale);
    att_fill_uniform(a->buf[K], a->len[K], seed, stream + K, 2.0f);
    att_fill_uniform(a->buf[V], a->len[V], seed, stream + V, 4.0f);
    if (c->negative) {   /* q <= 0 and every k >= 0: every score <= 0 */
        judge_sign(a->buf[Q], a->len[Q], -1);
        judge_sign(a->buf[K], a->len[K], 1);
    }
    float *k = a->buf[K], *v = a->buf[V];
    if (B > 1)
        for (int e = 0; e < D; e++) {
            k[(size_t)(B - 1) * row + e] = 0.0f;
            v[(size_t)(B - 1) * row + (size_t)(H - 1) * D + e] = 0.0f;
        }
    for (size_t i = 0; i < (size_t)B * H; i++) {
        away_from_halves(k + i * D, D);
        away_from_halves(v + i * D, D);
    }
}

static judge_status reference(void *const *outs, const judge_args *a)
{
    float *scratch = malloc(sizeof(float) * att_int8_decode_scratch_floats(a->ints[PS], a->ints[PD]));
    if (!scratch) return JUDGE_ENOMEM;
    /* The caches, scales and lengths arrive in outs holding their inputs. */
    att_status st = att_int8_decode_step_ref(outs[OUT], outs[KQ], outs[VQ], outs[KS], outs[VS],
                                             outs[LEN], a->buf[Q], a->buf[K], a->buf[V], a->ints[PB],
                                             a->ints[PS], a->ints[PH], a->ints[PD], scratch);
    free(scratch);
    return st == ATT_OK ? JUDGE_OK : JUDGE_EREFERENCE;
}

/* The core's SIMD kernel, one thread, for the speed runs (speed.c): the
 * caches and scales it writes are the reference's, byte for byte. */
static judge_status speed_core(void *const *outs, const judge_args *a)
{
    size_t n = att_int8_decode_simd_scratch_floats(a->ints[PB], a->ints[PS], a->ints[PH]);
    float *scratch = malloc(sizeof(float) * (n ? n : 1));
    if (!scratch) return JUDGE_ENOMEM;
    att_status st = att_int8_decode_step_simd(outs[OUT], outs[KQ], outs[VQ], outs[KS], outs[VS],
                                              outs[LEN], a->buf[Q], a->buf[K], a->buf[V], a->ints[PB],
                                              a->ints[PS], a->ints[PH], a->ints[PD], 1, scratch);
    free(scratch);
    return st == ATT_OK ? JUDGE_OK : JUDGE_EREFERENCE;
}

/* ---- what mistaken code returns: the quantisation and the cache update
 * with the knobs of the problem's mistakes (problem.json), and the
 * attention over the dequantised cache by the shared form (form.c), the
 * judge's model of wrong code (not a reference) ---- */

/* One vector x [n] into q8 and *scale as code with the changes ch would,
 * top being the max |x| over what that code takes the scale from; q8 NULL:
 * the scale only (code that forgets to store the values). */
static void quantize(signed char *q8, float *scale, const float *x, int n, float top,
                     const judge_changes *ch)
{
    float s = top / (ch->int8_scale == FORM_INT8_SCALE_MAX_128 ? 128.0f : 127.0f);
    if (top == 0.0f && ch->int8_zero == FORM_INT8_ZERO_ONE) s = 1.0f;
    *scale = s;
    for (int i = 0; i < n; i++) {
        float t = s <= 0.0f ? 0.0f : ch->int8_divide == FORM_INT8_DIVIDE_INVERSE ? x[i] * (1.0f / s) : x[i] / s;
        float r = ch->int8_round == FORM_INT8_ROUND_TRUNC ? truncf(t)
                : ch->int8_round == FORM_INT8_ROUND_FLOOR ? floorf(t)
                : ch->int8_round == FORM_INT8_ROUND_PLUS_HALF ? truncf(t + 0.5f) : roundf(t);
        if (ch->int8_clamp != FORM_INT8_CLAMP_NONE) r = fminf(fmaxf(r, -127.0f), 127.0f);
        /* Unclamped, 128 stored in a signed char wraps to -128, as every
         * compiler the judge runs does it. */
        if (q8) q8[i] = (signed char)(int)r;
    }
}

/* max |x|, or with the changes ch, max x (a max without fabs), or max abs((int)x) */
static float max_abs(const float *x, size_t n, const judge_changes *ch)
{
    float top = 0.0f;
    for (size_t i = 0; i < n; i++)
        top = fmaxf(top, ch->int8_scale == FORM_INT8_SCALE_SIGNED_MAX ? x[i]
                         : ch->int8_scale == FORM_INT8_SCALE_INT_ABS ? (float)abs((int)x[i]) : fabsf(x[i]));
    return top;
}

/* Where the scale of row j, head h of sequence b sits in [B, S_max, H], or
 * where code with the changes ch puts it. */
static size_t scale_at(const judge_changes *ch, int b, int j, int h, int S_max, int H)
{
    return ch->int8_scale_layout == FORM_INT8_SCALE_LAYOUT_HEAD_MAJOR ? ((size_t)b * H + h) * S_max + j
                                                                     : ((size_t)b * S_max + j) * H + h;
}

/* Where row j, head h of sequence b starts in a cache [B, S_max, H, D], or
 * where code that indexes it head-major, [B, H, S_max, D], reads it, or
 * code whose batch stride leaves out H (b * S_max * D: the sequences
 * overlap). */
static size_t cache_at(const judge_changes *ch, int b, int j, int h, int S_max, int H, int D)
{
    return (ch->cache_layout == FORM_CACHE_LAYOUT_HEAD_MAJOR ? ((size_t)b * H + h) * S_max + j
            : ch->cache_layout == FORM_CACHE_LAYOUT_BATCH_NO_H ? (size_t)b * S_max + (size_t)j * H + h
                                                               : ((size_t)b * S_max + j) * H + h) * D;
}

/* The new token's x [B, H, D] quantised into row at[b] of a cache q8
 * [B, S_max, H, D] with scales [B, S_max, H], for sequences b0 .. b1-1. */
static void store(signed char *q8, float *sc, const float *x, const int *at, int B, int b0, int b1,
                  int S_max, int H, int D, const judge_changes *ch)
{
    size_t row = (size_t)H * D;
    float all = max_abs(x, (size_t)B * row, ch);
    for (int b = b0; b < b1; b++) {
        float position = max_abs(x + (size_t)b * row, row, ch);
        for (int h = 0; h < H; h++) {
            const float *xh = x + (size_t)b * row + (size_t)h * D;
            float top = ch->int8_group == FORM_INT8_GROUP_TENSOR ? all
                      : ch->int8_group == FORM_INT8_GROUP_POSITION ? position : max_abs(xh, (size_t)D, ch);
            signed char *to = ch->cache_store == FORM_CACHE_STORE_SCALE_ONLY ? NULL
                            : q8 + cache_at(ch, b, at[b], h, S_max, H, D);
            quantize(to, sc + scale_at(ch, b, at[b], h, S_max, H), xh, D, top, ch);
        }
    }
}

/* The float cache [B, S_max, H, D] the code attends over, sequences b0 ..
 * b1-1: every row dequantised with the scale the changes pick, the new row
 * (at[b]) taken as the float x where the code attends its float values. */
static void dequantize(float *f, const signed char *q8, const float *sc, const float *x,
                       const int *at, int b0, int b1, int S_max, int H, int D, const judge_changes *ch)
{
    size_t row = (size_t)H * D;
    for (int b = b0; b < b1; b++)
        for (int j = 0; j < S_max; j++)
            for (int h = 0; h < H; h++) {
                int from = ch->int8_row_scale == FORM_INT8_ROW_SCALE_FIRST ? 0
                         : ch->int8_row_scale == FORM_INT8_ROW_SCALE_NEW ? at[b] : j;
                float s = sc[scale_at(ch, b, from, h, S_max, H)];
                size_t i = ((size_t)b * S_max + j) * row + (size_t)h * D, r = cache_at(ch, b, j, h, S_max, H, D);
                for (int c = 0; c < D; c++)
                    f[i + c] = j == at[b] && ch->int8_new_row == FORM_INT8_NEW_ROW_FLOAT
                             ? x[(size_t)b * row + (size_t)h * D + c]
                             : (ch->int8_read == FORM_INT8_READ_UNSIGNED ? (float)(unsigned char)q8[r + c]
                                                                          : (float)q8[r + c]) * s;
            }
}

static judge_status simulate(void *const *outs, const judge_args *a, const judge_changes *ch,
                             int variant)
{
    int B = a->ints[PB], S_max = a->ints[PS], H = a->ints[PH], D = a->ints[PD];
    size_t cache = (size_t)B * S_max * H * D, scales = (size_t)B * S_max * H;
    int *len = outs[LEN];
    /* The code's own copy of the caches (what it attends over), and the
     * dequantised floats: k and v as attended, then as they came. */
    signed char *wq = malloc(2 * cache);
    float *ws = malloc(sizeof(float) * 2 * scales), *f = malloc(sizeof(float) * 4 * cache);
    int *n = malloc(sizeof(int) * 2 * (size_t)B), *keys = n ? n + B : NULL;
    if (!wq || !ws || !f || !n) {
        free(wq);
        free(ws);
        free(f);
        free(n);
        return JUDGE_ENOMEM;
    }
    memcpy(wq, outs[KQ], cache);
    memcpy(wq + cache, outs[VQ], cache);
    memcpy(ws, outs[KS], sizeof(float) * scales);
    memcpy(ws + scales, outs[VS], sizeof(float) * scales);
    for (int b = 0; b < B; b++) {
        n[b] = ch->cache_lengths == FORM_CACHE_LENGTHS_FIRST ? len[0] : len[b];
        int seen = ch->cache_lengths == FORM_CACHE_LENGTHS_FIRST_ATTENDED ? len[0] : n[b];
        keys[b] = form_decode_keys(ch, seen, S_max);
    }
    int before = ch->cache_store == FORM_CACHE_STORE_RIGHT || ch->cache_store == FORM_CACHE_STORE_NONE ||
                 ch->cache_store == FORM_CACHE_STORE_SCALE_ONLY;
    /* Code that attends v with k's scales (int8_row_scale v_by_k). */
    int v_by_k = ch->int8_row_scale == FORM_INT8_ROW_SCALE_V_BY_K;
    if (ch->cache_keys == FORM_CACHE_KEYS_ONE_MORE) {   /* the only read of the caches as they came */
        dequantize(f + 2 * cache, outs[KQ], outs[KS], a->buf[K], n, 0, B, S_max, H, D, ch);
        dequantize(f + 3 * cache, outs[VQ], outs[v_by_k ? KS : VS], a->buf[V], n, 0, B, S_max, H, D, ch);
    }
    /* The batch stored, then attended; but sequences that overlap in the
     * cache one by one, each stored and attended before the next is, as
     * the code does. */
    int step = ch->cache_layout == FORM_CACHE_LAYOUT_BATCH_NO_H ? 1 : B;
    judge_status st = JUDGE_OK;
    for (int b0 = 0; b0 < B && st == JUDGE_OK; b0 += step) {
        int b1 = b0 + step;
        if (before) {
            store(wq, ws, a->buf[K], n, B, b0, b1, S_max, H, D, ch);
            store(wq + cache, ws + scales, a->buf[V], n, B, b0, b1, S_max, H, D, ch);
        }
        dequantize(f, wq, ws, a->buf[K], n, b0, b1, S_max, H, D, ch);
        dequantize(f + cache, wq + cache, ws + (v_by_k ? 0 : scales), a->buf[V], n, b0, b1, S_max, H, D, ch);
        form_view one = { NULL, (ptrdiff_t)H * D, D, 0, 1 };   /* [B, H, D]: one query per head */
        form_view w = { NULL, (ptrdiff_t)S_max * H * D, D, (ptrdiff_t)H * D, 1 };
        form_attn fa = { .B = step, .H = H, .Hkv = H, .T = 1, .S = S_max, .D = D, .kv_len = keys + b0 };
        size_t at = (size_t)b0 * H * D, seq = (size_t)b0 * S_max * H * D;
        fa.q = one;
        fa.q.p = (float *)a->buf[Q] + at;
        fa.out = one;
        fa.out.p = (float *)outs[OUT] + at;
        fa.k = w;
        fa.k.p = f + seq;
        fa.v = w;
        fa.v.p = f + cache + seq;
        st = form_decode_attention(&fa, ch, variant, f + 2 * cache + seq, f + 3 * cache + seq);
        if (ch->cache_store == FORM_CACHE_STORE_AFTER_ATTEND) {
            store(wq, ws, a->buf[K], n, B, b0, b1, S_max, H, D, ch);
            store(wq + cache, ws + scales, a->buf[V], n, B, b0, b1, S_max, H, D, ch);
        }
    }
    if (ch->cache_store != FORM_CACHE_STORE_NONE && ch->cache_store != FORM_CACHE_STORE_STALE) {
        memcpy(outs[KQ], wq, cache);
        memcpy(outs[VQ], wq + cache, cache);
        memcpy(outs[KS], ws, sizeof(float) * scales);
        memcpy(outs[VS], ws + scales, sizeof(float) * scales);
    }
    for (int b = 0; b < B; b++)
        len[b] = n[b] + (ch->cache_advance == FORM_CACHE_ADVANCE_NONE ? 0
                         : ch->cache_advance == FORM_CACHE_ADVANCE_TWICE ? 2
                         : ch->cache_advance == FORM_CACHE_ADVANCE_PER_HEAD ? H : 1);
    free(wq);
    free(ws);
    free(f);
    free(n);
    return st;
}

static void coords(char *buf, size_t n, const judge_args *a, int p, size_t i, judge_lang lang)
{
    int S_max = a->ints[PS], H = a->ints[PH], D = a->ints[PD];
    buf[0] = 0;
    if (p == LEN) {
        judge_coord(buf, n, lang, JUDGE_MSG_AXIS_B, (int)i);
        return;
    }
    if (p == KS || p == VS) {   /* [B, S_max, H] */
        judge_coord(buf, n, lang, JUDGE_MSG_AXIS_B, (int)(i / ((size_t)H * S_max)));
        judge_coord(buf, n, lang, JUDGE_MSG_AXIS_POS, (int)(i / (size_t)H % (size_t)S_max));
        judge_coord(buf, n, lang, JUDGE_MSG_AXIS_H, (int)(i % (size_t)H));
        return;
    }
    if (p == KQ || p == VQ) {   /* [B, S_max, H, D] */
        judge_coord(buf, n, lang, JUDGE_MSG_AXIS_B, (int)(i / ((size_t)D * H * S_max)));
        judge_coord(buf, n, lang, JUDGE_MSG_AXIS_POS, (int)(i / ((size_t)D * H) % (size_t)S_max));
    } else {
        judge_coord(buf, n, lang, JUDGE_MSG_AXIS_B, (int)(i / ((size_t)D * H)));
    }
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_H, (int)(i / (size_t)D % (size_t)H));
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_C, (int)(i % (size_t)D));
}

const judge_ops judge_int8_ops = {
    "int8-kv-cache", param_names, N_PARAMS, make_inputs, reference, simulate, coords, speed_core,
    NULL,
};
