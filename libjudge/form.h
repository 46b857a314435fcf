/* form.h: the shared attention form, internal to libjudge. One plain
 * simulator of attention as learners write it (float arithmetic, keys in
 * order, an optional online softmax over tiles) that honours every knob of
 * libjudge/form.json, so that any mistake a problem's data names, or a pair
 * of them, can be computed and set beside a learner's output. It is the
 * judge's model of wrong code, never a reference: the expected outputs come
 * from the core (core/att.h). The one place that decides which key a query
 * sees is form_sees(), in form.c. */
#ifndef JUDGE_FORM_H
#define JUDGE_FORM_H

#include <stddef.h>
#include "judge.h"

/* A tensor seen as (batch, head, position, dim): element (b, h, p, c) at
 * p[b*sb + h*sh + p*sp + c*sc]. For probs the last index is the key. */
typedef struct {
    float *p;
    ptrdiff_t sb, sh, sp, sc;
} form_view;

typedef struct {
    int B, H, Hkv, T, S, D;
    form_view q, k, v, out;           /* k, v: head = kv head, position = key */
    form_view lse, probs, first_key;  /* p NULL where the problem has no such output */
    const unsigned char *mask;        /* key padding: key j of batch b at mask[b*mask_sb + j] */
    ptrdiff_t mask_sb;
    int has_mask;                     /* the signature takes a mask (NULL may be passed) */
    const int *kv_len;                /* keys of batch b (decode); NULL: S for every batch */
    int causal, window, sinks;        /* window 0: none; sinks: keys 0 .. sinks-1 */
    form_view sink_logit;             /* gpt-oss: head h's logit at (0, h, 0, 0); p NULL: none */
    int cap, alibi;                   /* soft cap (0: none); ALiBi biases on (exercise 63) */
    size_t kv_n;                      /* elements of k and of v; 0: no kv head past Hkv is read */
} form_attn;

/* a and b as one set of changes in *out; 0 when they turn the same knob. */
int form_combine(judge_changes *out, const judge_changes *a, const judge_changes *b);

/* How many variants code with the changes ch comes in: the online softmax's
 * tile widths where ch turns a knob that shows differently at each (online,
 * the lse of the last tile, whole tiles), each in the three ways of the last
 * step (form.c). A problem that crosses them with ways of its own (58)
 * numbers its variants so that variant % form_variants(ch) is the form's. */
int form_variants(const judge_changes *ch);

/* Is the form's variant `variant` (of any changes) a common way: the last
 * step of an online softmax, at a power-of-two tile width? A pair of
 * mistakes, a weaker claim than one, is tried in those alone. */
int form_common(int variant);

/* What code with the changes ch puts in every exponent of its softmax
 * besides the scores (exp_base: exp2f for expf, log2(e) folded wrongly). */
float form_exp_factor(const judge_changes *ch);

/* The scale code with the changes ch gives q.k, in H heads of D dims, with
 * S keys (its exp_base factor in it). */
float form_score_scale(const judge_changes *ch, int H, int D, int S);

/* The dims of a D-dim score dot that code with the changes ch sums
 * (score_dims: a prefix of them, as an unrolled loop leaves; form.json). */
static inline int form_dot_dims(const judge_changes *ch, int D)
{
    switch (ch->score_dims) {
    case FORM_SCORE_DIMS_RIGHT: return D;
    case FORM_SCORE_DIMS_LAST_FOUR_SKIPPED: return D % 4 ? D : D - 4;
    case FORM_SCORE_DIMS_LAST_EIGHT_SKIPPED: return D % 8 ? D : D - 8;
    default: return D / 4 * 4;
    }
}

/* The offset code with the changes ch adds to query i's index to place it
 * among S keys, T queries being the last T positions: S - T when right. */
int form_causal_offset(const judge_changes *ch, int S, int T);

/* How many cache rows a decode step attends over, as code with the changes
 * ch does, when `seen` rows were cached before the new one (written at row
 * seen) and the cache holds S_max: rows 0 .. seen when right. */
int form_decode_keys(const judge_changes *ch, int seen, int S_max);

/* The online softmax's tile width in variant `variant` (or in the form's
 * part of a crossed one); 0 where ch does not turn the online knob. */
int form_tile(const judge_changes *ch, int variant);

/* Write f's outputs as code with the changes ch (variant `variant`) would.
 * JUDGE_ENOMEM when its scratch cannot be had; outputs are then undefined. */
judge_status form_attention(const form_attn *f, const judge_changes *ch, int variant);

/* form_attention for a decode step over a cache whose kv_len may run one row
 * past S (form_decode_keys): k0, v0 are the caches as they came (form.c). */
judge_status form_decode_attention(const form_attn *f, const judge_changes *ch, int variant,
                                   const float *k0, const float *v0);

/* The attention form of a problem whose data has an "attention" spec: sizes
 * and views from the call's arguments, outputs into outs (by param index).
 * Projections of x (exercise 49) are made here, in scratch of its own. */
judge_status form_simulate(void *const *outs, const judge_args *a,
                           const judge_changes *ch, int variant);

/* Sizes of a spec'd problem for one call: B, H, Hkv, T, S, D, d. */
void form_sizes(const judge_args *a, int size[JUDGE_N_SIZES]);

/* Coordinates of element i of out param p, from its axes in the spec. */
void form_coords(char *buf, size_t n, const judge_args *a, int p, size_t i, judge_lang lang);

/* Which slice element i of out param p lies in: bit 0 set past batch 0,
 * bit 1 past head 0; -1 when p has neither axis. From its axes in the spec
 * where it has some, else from the names of its dims (B, H). */
int form_slice(const judge_args *a, int p, size_t i);

/* Probing which keys reach which queries, from the spec: how many key
 * positions there are; make call args whose only change is at key j (for
 * projections of x: token j of batch 0, with the queries' weights zero so
 * that every score is equal and only the values carry the change; else key
 * and value j of batch 0 in every kv head); and which elements of which
 * output are query i's (batch 0, head 0), none past the last query, and,
 * where those are its weights (exercise 48), key j's at start + j * key_step
 * (key_step 0 where they are not). */
int form_probe_len(const judge_args *a);
void form_probe_base(judge_args *a);
void form_probe_perturb(judge_args *a, int j);
void form_probe_row(const judge_args *a, int i, int *param, size_t *start, size_t *n,
                    ptrdiff_t *key_step);

#endif
