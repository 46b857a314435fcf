/* problem_mla.c: what the judge knows about exercise 61, multi-head latent
 * attention at decode (DeepSeek-V2/V3), beyond its data in
 * problems/61-mla-decode: its hidden inputs (a latent cache with stale rows
 * past each length, a shared rotary key cache, per-head up-projections),
 * the reference (the core's att_mla_decode_ref), and the classic MLA
 * mistakes it can name. Not an attention form: the keys and values exist
 * only as latents, so there is no mask picture; the property (absorbed
 * equals un-absorbed) is tested on the reference in tests/ref_mla_test.c. */
#include <math.h>
#include <stdlib.h>
#include "att.h"
#include "judge.h"
#include "form.h"

enum { OUT, QN, QR, C, KPE, LEN, WUK, WUV, PB, PH, PS, PDC, PDN, PDR, PDV, N_PARAMS };

static const char *const param_names[N_PARAMS] = {
    "out", "q_nope", "q_pe", "c", "k_pe", "len", "w_uk", "w_uv",
    "B", "H", "S", "d_c", "d_nope", "d_r", "d_v",
};

/* Lengths differ per sequence and hit both ends: sequence 0 uses the whole
 * cache, sequence 1 one key, the rest are random in [1, S]. Rows past a
 * length are stale, larger and shifted, so that reading them shows. The
 * case's scale multiplies both query parts: scores past expf()'s range.
 * With "negative", both query parts are <= 0 and every latent, rotary key
 * and W_UK entry >= 0, so every score is <= 0 whatever the projection. */
static void make_inputs(judge_args *a, const judge_case *c, uint64_t seed, int case_index)
{
    int B = a->ints[PB], S = a->ints[PS], d_c = a->ints[PDC], d_r = a->ints[PDR];
    uint64_t stream = (uint64_t)case_index << 8;
    int *len = a->buf[LEN];
    float *lat = a->buf[C], *kpe = a->buf[KPE];
    att_fill_uniform(a->buf[QN], a->len[QN], seed, stream + QN, 2.0f * c->scale);
    att_fill_uniform(a->buf[QR], a->len[QR], seed, stream + QR, 2.0f * c->scale);
    att_fill_uniform(lat, a->len[C], seed, stream + C, 1.0f);
    att_fill_uniform(kpe, a->len[KPE], seed, stream + KPE, 2.0f);
    att_fill_uniform(a->buf[WUK], a->len[WUK], seed, stream + WUK, 1.0f);
    att_fill_uniform(a->buf[WUV], a->len[WUV], seed, stream + WUV, 1.0f);
    if (c->negative) {
        judge_sign(a->buf[QN], a->len[QN], -1);
        judge_sign(a->buf[QR], a->len[QR], -1);
        judge_sign(lat, a->len[C], 1);
        judge_sign(kpe, a->len[KPE], 1);
        judge_sign(a->buf[WUK], a->len[WUK], 1);
    }
    for (int b = 0; b < B; b++) {
        len[b] = b == 0 ? S : b == 1 ? 1 : 1 + (int)(att_rng_u64(seed, stream + LEN, (uint64_t)b) % (uint64_t)S);
        for (size_t i = ((size_t)b * S + len[b]) * d_c; i < (size_t)(b + 1) * S * d_c; i++)
            lat[i] = lat[i] * 3.0f + 2.0f;
        for (size_t i = ((size_t)b * S + len[b]) * d_r; i < (size_t)(b + 1) * S * d_r; i++)
            kpe[i] = kpe[i] * 3.0f + 2.0f;
    }
}

static judge_status reference(void *const *outs, const judge_args *a)
{
    double *scratch = malloc(sizeof(double) * att_mla_ref_scratch(a->ints[PS], a->ints[PDC]));
    if (!scratch) return JUDGE_ENOMEM;
    att_status st = att_mla_decode_ref(outs[OUT], a->buf[QN], a->buf[QR], a->buf[C], a->buf[KPE],
                                       a->buf[LEN], a->buf[WUK], a->buf[WUV], a->ints[PB], a->ints[PH],
                                       a->ints[PS], a->ints[PDC], a->ints[PDN], a->ints[PDR],
                                       a->ints[PDV], scratch);
    free(scratch);
    return st == ATT_OK ? JUDGE_OK : JUDGE_EREFERENCE;
}

/* The core's SIMD kernel, one thread, for the speed runs (speed.c). */
static judge_status speed_core(void *const *outs, const judge_args *a)
{
    size_t n = att_mla_decode_simd_scratch_floats(a->ints[PS], a->ints[PDC], 1);
    float *scratch = malloc(sizeof(float) * (n ? n : 1));
    if (!scratch) return JUDGE_ENOMEM;
    att_status st = att_mla_decode_simd(outs[OUT], a->buf[QN], a->buf[QR], a->buf[C], a->buf[KPE],
                                        a->buf[LEN], a->buf[WUK], a->buf[WUV], a->ints[PB], a->ints[PH],
                                        a->ints[PS], a->ints[PDC], a->ints[PDN], a->ints[PDR],
                                        a->ints[PDV], 1, scratch);
    free(scratch);
    return st == ATT_OK ? JUDGE_OK : JUDGE_EREFERENCE;
}

/* ---- what mistaken code returns: the absorbed decode in float as
 * learners write it, with the knobs of the problem's mistakes
 * (problem.json); the judge's model of wrong code, not a reference ---- */

static float scale_of(const judge_args *a, const judge_changes *ch)
{
    int d_c = a->ints[PDC], d_nope = a->ints[PDN], d_r = a->ints[PDR];
    switch (ch->mla_scale) {
    case FORM_MLA_SCALE_D_C: return 1.0f / sqrtf((float)d_c);
    case FORM_MLA_SCALE_D_C_R: return 1.0f / sqrtf((float)(d_c + d_r));
    case FORM_MLA_SCALE_D_NOPE: return 1.0f / sqrtf((float)d_nope);
    case FORM_MLA_SCALE_ONE: return 1.0f;
    case FORM_MLA_SCALE_LATENT_ONLY: return 1.0f;   /* the rotary part's: the latent part gets it in simulate */
    default: return 1.0f / sqrtf((float)(d_nope + d_r));
    }
}

/* Where o_lat runs on from head to head, code that weighs each row by its
 * normalised weight (variant 1) carries other sums than code that divides at
 * the end (0). */
static int variants(const judge_changes *ch)
{
    return ch->acc_reset ? 2 : 1;
}

/* One pass over the n scores s (FlashMLA's way), o_lat summed as the max
 * grows: where code forgets to rescale the sum or o_lat by exp(m_old - m_new)
 * (online no_rescale, no_rescale_acc, no_rescale_sum). Returns the sum. */
static float online_latent(const judge_changes *ch, const float *s, int n, const float *cb, int rows, int d_c,
                           float *o_lat)
{
    int sum_fixed = ch->online == FORM_ONLINE_NO_RESCALE || ch->online == FORM_ONLINE_NO_RESCALE_SUM;
    int acc_fixed = ch->online == FORM_ONLINE_NO_RESCALE || ch->online == FORM_ONLINE_NO_RESCALE_ACC;
    float m = -INFINITY, sum = 0.0f;
    for (int j = 0; j < n; j++) {
        float m_new = s[j] > m ? s[j] : m, a = expf(m - m_new), e = expf(s[j] - m_new);
        sum = (sum_fixed ? sum : sum * a) + e;
        for (int l = 0; l < d_c; l++)
            o_lat[l] = (acc_fixed ? o_lat[l] : o_lat[l] * a) + e * (j < rows ? cb[(size_t)j * d_c + l] : NAN);
        m = m_new;
    }
    return sum;
}

static judge_status simulate(void *const *outs, const judge_args *a, const judge_changes *ch,
                             int variant)
{
    int B = a->ints[PB], H = a->ints[PH], S = a->ints[PS], d_c = a->ints[PDC];
    int d_nope = a->ints[PDN], d_r = a->ints[PDR], d_v = a->ints[PDV];
    const float *qn = a->buf[QN], *qr = a->buf[QR], *lat = a->buf[C], *kpe = a->buf[KPE];
    const float *uk = a->buf[WUK], *uv = a->buf[WUV];
    const int *len = a->buf[LEN];
    float *out = outs[OUT], scale = scale_of(a, ch);
    float lat_scale = ch->mla_scale == FORM_MLA_SCALE_LATENT_ONLY ? 1.0f / sqrtf((float)(d_nope + d_r)) : 1.0f;
    float *q_lat = malloc(sizeof(float) * (2 * (size_t)d_c + (size_t)S + 1)), *o_lat = q_lat + d_c, *s = o_lat + d_c;   /* S + 1 scores: one_more */
    if (!q_lat) return JUDGE_ENOMEM;
    int no_max = ch->softmax == FORM_SOFTMAX_NO_MAX;
    for (int b = 0; b < B; b++) {
        /* Its keys are rows 0 .. len - 1: "without_new" is one of them short,
         * "one_more" one past, the next sequence's row 0 where len is S. */
        int n = ch->cache_keys == FORM_CACHE_KEYS_WHOLE ? S
              : ch->cache_keys == FORM_CACHE_KEYS_WITHOUT_NEW ? len[b] - 1
              : ch->cache_keys == FORM_CACHE_KEYS_ONE_MORE ? len[b] + 1 : len[b];
        size_t at = ch->mla_batch == FORM_MLA_BATCH_LEN ? (size_t)b * len[b] : (size_t)b * S;
        const float *cb = lat + (ch->mla_batch == FORM_MLA_BATCH_NO_D_C ? at : at * d_c);
        const float *kb = kpe + (ch->mla_batch == FORM_MLA_BATCH_KPE_FIRST ? 0 : (size_t)b * S * d_r);
        /* Rows past the cache (the last sequence's row S): the judge's guard. */
        int rows = (int)(((size_t)B * S * d_c - (size_t)(cb - lat)) / d_c), krows = (B - b) * S;
        for (int h = 0; h < H; h++) {
            size_t bh = (size_t)b * H + h;
            const float *W = uk + (size_t)h * (ch->mla_head == FORM_MLA_HEAD_UK_ROW ? d_c
                                               : ch->mla_head == FORM_MLA_HEAD_UK_FIRST ? 0 : d_c * d_nope);
            const float *V = uv + (size_t)h * (ch->mla_head == FORM_MLA_HEAD_UV_ROW ? d_v
                                               : ch->mla_head == FORM_MLA_HEAD_UV_FIRST ? 0 : d_c * d_v);
            for (int l = 0; l < d_c; l++) {
                float acc = 0.0f;
                for (int p = 0; p < d_nope; p++)
                    acc += (ch->mla_uk ? W[(size_t)p * d_c + l] : W[(size_t)l * d_nope + p]) * qn[bh * d_nope + p];
                q_lat[l] = acc;
            }
            float max = no_max || ch->softmax == FORM_SOFTMAX_MAX_FROM_ZERO ? 0.0f : -INFINITY, sum = 0.0f;
            for (int j = 0; j < n; j++) {
                float dot = 0.0f, rot = 0.0f;
                for (int l = 0; l < form_dot_dims(ch, d_c) && j < rows; l++)
                    dot += q_lat[l] * cb[(size_t)j * d_c + l];
                for (int r = 0; r < d_r && !ch->mla_rope && j < krows; r++) rot += qr[bh * d_r + r] * kb[(size_t)j * d_r + r];
                s[j] = j < rows && j < krows ? (dot * lat_scale + rot) * scale : NAN;
                if (!no_max && s[j] > max) max = s[j];
            }
            /* Code that does not reset o_lat sums on from the heads before. */
            int fresh = !ch->acc_reset || (b == 0 && h == 0) || (ch->acc_reset == FORM_ACC_RESET_PER_BATCH && h == 0);
            for (int l = 0; l < d_c && fresh; l++) o_lat[l] = 0.0f;
            if (ch->online)
                sum = online_latent(ch, s, n, cb, rows, d_c, o_lat);
            else {
                for (int j = 0; j < n; j++) sum += s[j] = expf(s[j] - max);
                for (int j = 0; j < n; j++) {
                    float e = variant ? s[j] / sum : s[j];
                    for (int l = 0; l < d_c; l++) o_lat[l] += e * (j < rows ? cb[(size_t)j * d_c + l] : NAN);
                }
            }
            for (int v = 0; v < d_v; v++) {
                float acc = 0.0f;
                for (int l = 0; l < d_c; l++)
                    acc += o_lat[l] * (ch->mla_uv ? V[(size_t)v * d_c + l] : V[(size_t)l * d_v + v]);
                out[bh * d_v + v] = ch->normalize == FORM_NORMALIZE_NONE || variant ? acc : acc / sum;
            }
        }
    }
    free(q_lat);
    return JUDGE_OK;
}

static void coords(char *buf, size_t n, const judge_args *a, int p, size_t i, judge_lang lang)
{
    (void)p;   /* out [B, H, d_v] is the only output */
    size_t H = (size_t)a->ints[PH], d_v = (size_t)a->ints[PDV];
    buf[0] = 0;
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_B, (int)(i / (d_v * H)));
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_H, (int)(i / d_v % H));
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_C, (int)(i % d_v));
}

const judge_ops judge_mla_ops = {
    "mla-decode", param_names, N_PARAMS, make_inputs, reference, simulate, coords, speed_core, variants,
};
