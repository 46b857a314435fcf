/* problem_rope.c: what the judge knows about exercises 57, rotary position
 * embedding (RoPE), and 58, a decode step with RoPE in the KV cache, beyond
 * their data in problems/57-rope and problems/58-rope-decode: the hidden
 * inputs (57: offsets that differ per sequence, from 0 to about a thousand;
 * 58: exercise 52's caches), the references (the core's att_rope_ref and
 * att_rope_decode_step_ref), and their classic mistakes, simulated by one
 * float rotation with the rope_* knobs of libjudge/form.json (58: that
 * rotation, then exercise 52's simulation of the cache step). Neither has
 * a mask picture: RoPE has no keys, and a decode step has one query. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "att.h"
#include "form.h"
#include "judge.h"

enum { X, OFFSET, PB, PH, PT, PD, PTHETA, N_PARAMS };

static const char *const param_names[N_PARAMS] = { "x", "offset", "B", "H", "T", "D", "theta" };

/* Offsets differ per sequence and are scale * [0, 64): sequence 0's is never
 * 0 and sequence 1's always is, so ignoring the offsets and using offset[0]
 * for all are wrong on different sequences. A case with scale 0 has every
 * offset 0; scale 16 reaches positions past a thousand. */
static void make_inputs(judge_args *a, const judge_case *c, uint64_t seed, int case_index)
{
    uint64_t stream = (uint64_t)case_index << 8;
    int *offset = a->buf[OFFSET];
    for (int b = 0; b < a->ints[PB]; b++) {
        int r = (int)(att_rng_u64(seed, stream + OFFSET, (uint64_t)b) % 63u);
        offset[b] = (int)(c->scale * (b == 0 ? 1 + r : b == 1 ? 0 : r));
    }
    att_fill_uniform(a->buf[X], a->len[X], seed, stream + X, 1.0f);
}

static judge_status reference(void *const *outs, const judge_args *a)
{
    /* outs[X] arrives holding its input. */
    att_status st = att_rope_ref(outs[X], a->buf[OFFSET], a->ints[PB], a->ints[PH], a->ints[PT],
                                 a->ints[PD], (double)a->ints[PTHETA]);
    return st == ATT_OK ? JUDGE_OK : JUDGE_EREFERENCE;
}

/* ---- what mistaken code returns: a float rotation as learners write it,
 * with the knobs of the problem's mistakes (problem.json), the judge's model
 * of wrong code (not a reference) ---- */

/* The position code with the changes ch gives token t of sequence b, whose
 * first token sits at base[b]. */
static int position(const judge_changes *ch, const int *base, int b, int t)
{
    int p = (ch->rope_pos == FORM_ROPE_POS_ZERO ? 0
             : ch->rope_pos == FORM_ROPE_POS_FIRST ? base[0] : base[b]) + t;
    return p + (ch->rope_pos == FORM_ROPE_POS_MINUS_ONE ? -1 : ch->rope_pos == FORM_ROPE_POS_PLUS_ONE);
}

/* Turn one head vector x [D] in place to position pos, the angles in float,
 * or in double (variant 1). */
static void turn(float *x, int D, int pos, int theta, const judge_changes *ch, int variant)
{
    float base = ch->rope_theta == FORM_ROPE_THETA_FIXED ? 10000.0f : (float)theta;
    int half = D / 2, interleaved = ch->rope_pairing == FORM_ROPE_PAIRING_INTERLEAVED;
    int pairs = ch->rope_span == FORM_ROPE_SPAN_WHOLE_FOURS ? half / 4 * 4
              : half - (ch->rope_span == FORM_ROPE_SPAN_LAST_SKIPPED);
    for (int i = 0; i < pairs; i++) {
        /* The exponent, a quotient of small integers: in float it is that
         * quotient rounded once, as code computing it in float has it. */
        double e = ch->rope_freq == FORM_ROPE_FREQ_INT_DIV ? (double)(2 * i / D)
                 : ch->rope_freq == FORM_ROPE_FREQ_I_OVER_D ? (double)i / D
                 : 2.0 * (i + (ch->rope_freq == FORM_ROPE_FREQ_PAIR_PLUS_ONE)) / D;
        if (ch->rope_freq != FORM_ROPE_FREQ_POSITIVE) e = -e;
        float c, s;
        if (variant) {
            double angle = pos * pow(base, e);
            c = (float)cos(angle), s = (float)sin(angle);
        } else {
            float angle = (float)pos * powf(base, (float)e);
            c = cosf(angle), s = sinf(angle);
        }
        if (ch->rope_sign == FORM_ROPE_SIGN_FLIPPED) s = -s;
        float *u = x + (interleaved ? 2 * i : i), *w = x + (interleaved ? 2 * i + 1 : i + half);
        float u0 = *u, w0 = *w;
        if (ch->rope_update == FORM_ROPE_UPDATE_OVERWRITE_HIGH) {
            *w = w0 * c + u0 * s;
            *u = u0 * c - *w * s;
            continue;
        }
        *u = u0 * c - w0 * s;
        *w = w0 * c + (ch->rope_update == FORM_ROPE_UPDATE_OVERWRITE ? *u : u0) * s;
    }
}

static judge_status simulate(void *const *outs, const judge_args *a, const judge_changes *ch,
                             int variant)
{
    int B = a->ints[PB], H = a->ints[PH], T = a->ints[PT], D = a->ints[PD];
    float *x = outs[X];   /* it arrives holding its input */
    int bthd = ch->rope_layout == FORM_ROPE_LAYOUT_BTHD;
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++) {
                size_t at = bthd ? ((size_t)b * T + t) * H + h : ((size_t)b * H + h) * T + t;
                turn(x + at * D, D, position(ch, a->buf[OFFSET], b, t), a->ints[PTHETA], ch, variant);
            }
    return JUDGE_OK;
}

static void coords(char *buf, size_t n, const judge_args *a, int p, size_t i, judge_lang lang)
{
    (void)p;
    size_t H = (size_t)a->ints[PH], T = (size_t)a->ints[PT], D = (size_t)a->ints[PD];
    buf[0] = 0;
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_B, (int)(i / (D * T * H)));
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_H, (int)(i / (D * T) % H));
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_T, (int)(i / D % T));
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_C, (int)(i % D));
}

/* A frequency of theta^(2i/D) turns the last pairs by up to pos * theta
 * radians, where float and double angles part by more than the tolerance:
 * each is a way of writing it. Every other angle stays below pos. */
static int variants(const judge_changes *ch)
{
    return ch->rope_freq == FORM_ROPE_FREQ_POSITIVE ? 2 : 1;
}

const judge_ops judge_rope_ops = {
    "rope", param_names, N_PARAMS, make_inputs, reference, simulate, coords, NULL, variants,
};

/* ---- 58: one decode step with RoPE in the cache ----
 * The params are exercise 52's, in its order, and theta: 52's inputs, its
 * coordinates and its simulation of the cache step (problem_decode.c) serve
 * here as they are, given the rotated q and k. */

extern const judge_ops judge_decode_ops;

enum { DOUT, DKC, DVC, DLEN, DQ, DK, DV, DB, DS, DH, DD, DTHETA, N_DECODE };

static const char *const decode_names[N_DECODE] = {
    "out", "k_cache", "v_cache", "len", "q", "k", "v", "B", "S_max", "H", "D", "theta",
};

static void decode_inputs(judge_args *a, const judge_case *c, uint64_t seed, int case_index)
{
    judge_decode_ops.make_inputs(a, c, seed, case_index);
}

static judge_status decode_reference(void *const *outs, const judge_args *a)
{
    int B = a->ints[DB], S_max = a->ints[DS], H = a->ints[DH], D = a->ints[DD];
    float *scratch = malloc(sizeof(float) * ((size_t)S_max + 2 * (size_t)B * H * D));
    if (!scratch) return JUDGE_ENOMEM;
    /* outs[DKC], outs[DVC] and outs[DLEN] arrive holding their inputs. */
    att_status st = att_rope_decode_step_ref(outs[DOUT], outs[DKC], outs[DVC], outs[DLEN], a->buf[DQ],
                                             a->buf[DK], a->buf[DV], B, S_max, H, D,
                                             (double)a->ints[DTHETA], scratch);
    free(scratch);
    return st == ATT_OK ? JUDGE_OK : JUDGE_EREFERENCE;
}

/* Turn every head of the B new-token rows x [B, H, D] to its sequence's
 * position (from the lengths len, as ch says). Code whose heads each read
 * len[b] and advance it (cache_advance per_head_read) turns head h to
 * len[b] + h, the row it stores it at. */
static void turn_new(float *x, const int *len, const judge_args *a, const judge_changes *ch,
                     int variant)
{
    int H = a->ints[DH], D = a->ints[DD], whole = ch->rope_heads == FORM_ROPE_HEADS_WHOLE_ROW;
    int per_head = ch->cache_advance == FORM_CACHE_ADVANCE_PER_HEAD_READ;
    for (int b = 0; b < a->ints[DB]; b++)
        for (int h = 0; h < (whole ? 1 : H); h++)
            turn(x + ((size_t)b * H + h) * D, whole ? H * D : D, position(ch, len, b, 0) + (per_head ? h : 0),
                 a->ints[DTHETA], ch, variant);
}

/* 58's ways: the angles in float or double (variants()) for each of the
 * form's ways of attending. */
static int decode_variants(const judge_changes *ch)
{
    return variants(ch) * form_variants(ch);
}

static judge_status decode_simulate(void *const *outs, const judge_args *a, const judge_changes *ch,
                                    int ways)
{
    int variant = ways / form_variants(ch), attend = ways % form_variants(ch);
    int B = a->ints[DB], S_max = a->ints[DS], H = a->ints[DH], D = a->ints[DD];
    int rerotated = ch->rope_k == FORM_ROPE_K_REROTATED || ch->rope_k == FORM_ROPE_K_REROTATED_OLD
                 || ch->rope_k == FORM_ROPE_K_REROTATED_IN_PLACE;
    size_t row = (size_t)H * D, n = (size_t)B * row, cache = (size_t)S_max * n;
    const int *len = a->buf[DLEN];
    float *qr = malloc(sizeof(float) * (3 * n + (rerotated ? n + 2 * cache : 0))), *kr = qr + n, *vr = kr + n;
    int *len2 = malloc(sizeof(int) * (size_t)B);
    if (!qr || !len2) {
        free(qr);
        free(len2);
        return JUDGE_ENOMEM;
    }
    memcpy(qr, a->buf[DQ], sizeof(float) * n);
    memcpy(kr, a->buf[DK], sizeof(float) * n);
    memcpy(vr, a->buf[DV], sizeof(float) * n);
    if (ch->rope_q != FORM_ROPE_Q_UNROTATED) turn_new(qr, len, a, ch, variant);
    if (ch->rope_k != FORM_ROPE_K_STORED_UNROTATED) turn_new(kr, len, a, ch, variant);
    if (ch->rope_v == FORM_ROPE_V_ROTATED) turn_new(vr, len, a, ch, variant);
    judge_args r = *a;
    r.buf[DQ] = qr;
    r.buf[DK] = kr;
    r.buf[DV] = vr;
    judge_status st = judge_decode_ops.simulate(outs, &r, ch, attend);
    if (rerotated && st == JUDGE_OK) {
        /* Code that turns every key again at its own position when it
         * attends, on copies: the cache and the lengths stay as written
         * above, the output is that of keys turned twice (the new one too,
         * or only the cached ones, as code that turns the rows j < len;
         * in_place turns them in the cache itself). */
        float *k2 = vr + n, *kc = k2 + n, *vc = kc + cache;
        memcpy(k2, kr, sizeof(float) * n);
        if (ch->rope_k == FORM_ROPE_K_REROTATED) turn_new(k2, len, a, ch, variant);
        memcpy(kc, a->buf[DKC], sizeof(float) * cache);
        memcpy(vc, a->buf[DVC], sizeof(float) * cache);
        memcpy(len2, len, sizeof(int) * (size_t)B);
        for (int b = 0; b < B; b++)
            for (int j = 0; j < len[b]; j++)
                for (int h = 0; h < H; h++)
                    turn(kc + ((size_t)b * S_max + j) * row + (size_t)h * D, D, j, a->ints[DTHETA], ch, variant);
        void *o2[N_DECODE] = { outs[DOUT], kc, vc, len2 };
        r.buf[DK] = k2;
        st = judge_decode_ops.simulate(o2, &r, ch, attend);
        /* In place, the cache keeps its keys turned twice. */
        if (ch->rope_k == FORM_ROPE_K_REROTATED_IN_PLACE) memcpy(outs[DKC], kc, sizeof(float) * cache);
    }
    free(qr);
    free(len2);
    return st;
}

static void decode_coords(char *buf, size_t n, const judge_args *a, int p, size_t i, judge_lang lang)
{
    judge_decode_ops.coords(buf, n, a, p, i, lang);
}

const judge_ops judge_rope_decode_ops = {
    "rope-decode", decode_names, N_DECODE, decode_inputs, decode_reference, decode_simulate, decode_coords, NULL,
    decode_variants,
};
