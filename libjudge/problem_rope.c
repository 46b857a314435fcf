/* problem_rope.c: what the judge knows about exercise 57, rotary position
 * embedding (RoPE), beyond its data in problems/57-rope: its hidden inputs
 * (offsets that differ per sequence, from 0 to about a thousand), the
 * reference (the core's att_rope_ref), and its classic mistakes, simulated
 * by one float rotation with the rope_* knobs of libjudge/form.json. RoPE
 * has no queries and keys to picture, so there is no probe. */
#include <math.h>
#include "att.h"
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

/* Turn one head vector x [D] in place to position pos, in float. */
static void turn(float *x, int D, int pos, int theta, const judge_changes *ch)
{
    float base = ch->rope_theta == FORM_ROPE_THETA_FIXED ? 10000.0f : (float)theta;
    int half = D / 2, interleaved = ch->rope_pairing == FORM_ROPE_PAIRING_INTERLEAVED;
    for (int i = 0; i < half; i++) {
        float e = (ch->rope_freq == FORM_ROPE_FREQ_I_OVER_D ? (float)i : 2.0f * (float)i) / (float)D;
        float angle = (float)pos * powf(base, -e), c = cosf(angle), s = sinf(angle);
        if (ch->rope_sign == FORM_ROPE_SIGN_FLIPPED) s = -s;
        float *u = x + (interleaved ? 2 * i : i), *w = x + (interleaved ? 2 * i + 1 : i + half);
        float u0 = *u, w0 = *w;
        *u = u0 * c - w0 * s;
        *w = w0 * c + (ch->rope_update == FORM_ROPE_UPDATE_OVERWRITE ? *u : u0) * s;
    }
}

static judge_status simulate(void *const *outs, const judge_args *a, const judge_changes *ch,
                             int variant)
{
    (void)variant;
    int B = a->ints[PB], H = a->ints[PH], T = a->ints[PT], D = a->ints[PD];
    float *x = outs[X];   /* it arrives holding its input */
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int t = 0; t < T; t++)
                turn(x + (((size_t)b * H + h) * T + t) * D, D, position(ch, a->buf[OFFSET], b, t),
                     a->ints[PTHETA], ch);
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

const judge_ops judge_rope_ops = {
    "rope", param_names, N_PARAMS, make_inputs, reference, simulate, coords,
};
