/* problem_varlen.c: what the judge knows about exercise 68, variable-length
 * packed attention, beyond its data in problems/68-varlen-attention: how the
 * packs are made (cu_seqlens drawn from the case's B and total unless the
 * case gives them), the reference (the core's), and the mistakes of packed
 * code it can name. The mistakes change which keys a token sees by its
 * sequence, which the attention form cannot say (it has no pack), so they
 * are simulated here. There is no mask picture (probing needs the form's
 * spec); which keys reach which token is held to the statement by the
 * cases (empty, one-token and long sequences side by side) and the
 * mistakes that change it. */
#include <math.h>
#include <stdlib.h>
#include "att.h"
#include "form.h"
#include "judge.h"

enum { OUT, Q, K, V, CU, PB, PTOTAL, PH, PD, N_PARAMS };

static const char *const param_names[N_PARAMS] = {
    "out", "q", "k", "v", "cu_seqlens", "B", "total", "H", "D",
};

/* A pack of B sequences over `total` tokens, each rule an edge the
 * statement names: sequence 0 holds about half the tokens (one long
 * sequence), sequence 1 none, sequence 2 one token, and the rest share the
 * remainder at random cut points (short ones, some empty). With B <= 3
 * sequence 0 takes what is left. */
static void draw_pack(int *cu, int B, int total, uint64_t seed, uint64_t stream)
{
    int first = B == 1 ? total : total / 2, one = B >= 3 && total - first >= 1;
    int rest = total - first - one;
    if (B <= 3) first += rest;
    cu[0] = 0;
    cu[1] = first;
    if (B >= 2) cu[2] = first;
    if (B >= 3) cu[3] = first + one;
    for (int b = 4; b < B; b++) {   /* the inner cut points, sorted as drawn */
        int x = cu[3] + (int)(att_rng_u64(seed, stream, (uint64_t)b) % (uint64_t)(rest + 1)), at = b;
        for (; at > 4 && cu[at - 1] > x; at--) cu[at] = cu[at - 1];
        cu[at] = x;
    }
    cu[B] = total;
}

/* q, k ~ U[-2, 2) (the case's scale multiplies q: rows where one key takes
 * nearly all the probability), v ~ U[-1, 1): every sequence's keys differ,
 * so a key from another sequence shows. A case's own cu_seqlens replace the
 * drawn ones after this. */
static void make_inputs(judge_args *a, const judge_case *c, uint64_t seed, int case_index)
{
    uint64_t stream = (uint64_t)case_index << 8;
    draw_pack(a->buf[CU], a->ints[PB], a->ints[PTOTAL], seed, stream + CU);
    att_fill_uniform(a->buf[Q], a->len[Q], seed, stream + Q, 2.0f * c->scale);
    att_fill_uniform(a->buf[K], a->len[K], seed, stream + K, 2.0f);
    if (c->negative) {
        judge_sign(a->buf[Q], a->len[Q], -1);
        judge_sign(a->buf[K], a->len[K], 1);
    }
    att_fill_uniform(a->buf[V], a->len[V], seed, stream + V, 1.0f);
}

static judge_status reference(void *const *outs, const judge_args *a)
{
    double *scratch = malloc(sizeof(double) * (size_t)a->ints[PTOTAL]);
    if (!scratch) return JUDGE_ENOMEM;
    att_status st = att_varlen_ref(outs[OUT], a->buf[Q], a->buf[K], a->buf[V], a->buf[CU],
                                   a->ints[PB], a->ints[PTOTAL], a->ints[PH], a->ints[PD], scratch);
    free(scratch);
    return st == ATT_OK ? JUDGE_OK : JUDGE_EREFERENCE;
}

/* ---- what mistaken code returns: per token, a float softmax over the keys
 * code with the changes ch lets it see, in the learner's order; the judge's
 * model of wrong code (not a reference). ---- */

/* The sequence token t is taken to be in (cu_seqlens read as ch says). */
static int sequence_of(const int *cu, int B, int t, const judge_changes *ch)
{
    int b = 0;
    if (ch->varlen_bounds == FORM_VARLEN_BOUNDS_BOUNDARY_TO_PREVIOUS)
        while (b < B - 1 && t > cu[b + 1]) b++;
    else
        while (b < B - 1 && t >= cu[b + 1]) b++;
    return b;
}

/* Does token t (local position i of a sequence from lo, or of the pack)
 * see key j (packed index), by the causal test as ch writes it? */
static int sees(const judge_changes *ch, int t, int i, int j, int lo)
{
    if (ch->causal == FORM_CAUSAL_OFF) return 1;
    if (ch->varlen_causal == FORM_VARLEN_CAUSAL_PACKED_KEY) return j <= i;
    if (ch->varlen_causal == FORM_VARLEN_CAUSAL_PACKED_QUERY) return j - lo <= t;
    return ch->diagonal == FORM_DIAGONAL_EXCLUDED ? j < t : j <= t;
}

static judge_status simulate(void *const *outs, const judge_args *a, const judge_changes *ch,
                             int variant)
{
    (void)variant;
    int B = a->ints[PB], total = a->ints[PTOTAL], H = a->ints[PH], D = a->ints[PD];
    const float *q = a->buf[Q], *k = a->buf[K], *v = a->buf[V];
    const int *cu = a->buf[CU];
    float *out = outs[OUT];
    float *e = malloc(sizeof(float) * (size_t)total), *acc = malloc(sizeof(float) * (size_t)D);
    if (!e || !acc) {
        free(e);
        free(acc);
        return JUDGE_ENOMEM;
    }
    int head_major = ch->varlen_layout == FORM_VARLEN_LAYOUT_HEAD_MAJOR;
    int heads_inner = ch->varlen_layout == FORM_VARLEN_LAYOUT_HEADS_INNER;
    /* Element (t, h, c) as the code indexes it. */
#define AT(t, h, c) (head_major ? ((size_t)(h) * total + (t)) * D + (c)                \
                     : heads_inner ? ((size_t)(t) * D + (c)) * H + (h) : ((size_t)(t) * H + (h)) * D + (c))
    float scale = form_score_scale(ch, H, D, total), carried = 0.0f;   /* the sum code did not reset */
    for (int t = 0; t < total; t++) {
        int b = sequence_of(cu, B, t, ch);
        int lo = ch->varlen_keys == FORM_VARLEN_KEYS_PACK ? 0 : cu[b];
        int hi = ch->varlen_keys == FORM_VARLEN_KEYS_PACK ? total : cu[b + 1];
        if (hi <= t) hi = t + 1;   /* a first token taken into the sequence before: its keys run to it */
        int dropped = ch->varlen_bounds == FORM_VARLEN_BOUNDS_LAST_DROPPED && t == cu[b + 1] - 1;
        if (ch->varlen_bounds == FORM_VARLEN_BOUNDS_LAST_DROPPED && hi == cu[b + 1]) hi--;
        /* Code that reads key j at its local index reads the pack's first
         * keys (and values, unless local_index_k). */
        int read0 = ch->varlen_keys == FORM_VARLEN_KEYS_LOCAL_INDEX || ch->varlen_keys == FORM_VARLEN_KEYS_LOCAL_INDEX_K ? lo : 0;
        int read0_v = ch->varlen_keys == FORM_VARLEN_KEYS_LOCAL_INDEX ? lo : 0;
        if (ch->sum_reset == FORM_SUM_RESET_PER_TOKEN) carried = 0.0f;
        for (int h = 0; h < H; h++) {
            float max = ch->softmax == FORM_SOFTMAX_MAX_FROM_ZERO ? 0.0f : -INFINITY;
            float sum = ch->sum_reset ? carried : 0.0f;
            for (int c = 0; c < D; c++) acc[c] = 0.0f;
            for (int j = lo; j < hi && !dropped; j++) {
                /* max_with_hidden: the max over the sequence's later keys too */
                int seen = sees(ch, t, t - lo, j, lo);
                e[j] = -INFINITY;
                if (!seen && ch->softmax != FORM_SOFTMAX_MAX_WITH_HIDDEN) continue;
                float s = 0.0f;
                for (int c = 0; c < form_dot_dims(ch, D); c++) s += q[AT(t, h, c)] * k[AT(j - read0, h, c)];
                if (s * scale > max) max = s * scale;
                if (seen) e[j] = s * scale;
            }
            if (ch->softmax == FORM_SOFTMAX_NO_MAX && max > -INFINITY) max = 0.0f;
            for (int j = lo; j < hi && !dropped && max > -INFINITY; j++) {
                if (e[j] == -INFINITY) continue;
                float x = expf(e[j] - max);
                sum += x;
                for (int c = 0; c < D; c++) acc[c] += x * v[AT(j - read0_v, h, c)];
            }
            carried = sum;
            for (int c = 1; c < D && ch->acc_dims; c++) acc[c] += acc[c - 1];
            for (int c = 0; c < D; c++) out[AT(t, h, c)] = sum > 0.0f ? acc[c] / sum : 0.0f;
        }
    }
#undef AT
    free(e);
    free(acc);
    return JUDGE_OK;
}

static void coords(char *buf, size_t n, const judge_args *a, int p, size_t i, judge_lang lang)
{
    (void)p;   /* out is the only output */
    int H = a->ints[PH], D = a->ints[PD], B = a->ints[PB];
    const int *cu = a->buf[CU];
    int t = (int)(i / ((size_t)H * D)), b = 0;
    while (b < B - 1 && t >= cu[b + 1]) b++;
    buf[0] = 0;
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_VARLEN_TOKEN, t, b, t - cu[b]);
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_H, (int)(i / (size_t)D % (size_t)H));
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_C, (int)(i % (size_t)D));
}

const judge_ops judge_varlen_ops = {
    "varlen-attention", param_names, N_PARAMS, make_inputs, reference, simulate, coords, NULL, NULL,
};
