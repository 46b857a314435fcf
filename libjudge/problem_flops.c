/* problem_flops.c: what the judge knows about exercise 56, attention FLOPs
 * (the chapter's exercise 1), beyond its data in problems/56-attention-flops:
 * how the (d, T) queries are drawn, the reference (the core's), and the
 * classic counting and overflow mistakes it can name. Answers are integers,
 * checked exactly; there is no mask to probe. */
#include <stdint.h>
#include "att.h"
#include "judge.h"

enum { PROJ, ATTN, CROSS, DIM, LEN, PN, N_PARAMS };

static const char *const param_names[N_PARAMS] = { "proj", "attn", "cross", "d", "T", "n" };

/* Sizes stay where the exact answers fit in 63 bits: T <= 2^20 and d <= 2^18
 * give 8 T d^2 <= 2^59 and 4 T^2 d <= 2^60. */
enum { T_MAX = 1 << 20, D_MAX = 1 << 18 };

static int draw(uint64_t seed, uint64_t stream, uint64_t i, int hi)
{
    return 1 + (int)(att_rng_u64(seed, stream, i) % (uint64_t)hi);
}

/* The case's scale is the largest d it draws. Every fourth query sits on the
 * tie T = 2d, the next one just past it, the others are free: up to 4x the
 * largest d, or anywhere up to 2^20 (where 32 bits and doubles give out). */
static void make_inputs(judge_args *a, const judge_case *c, uint64_t seed, int case_index)
{
    int n = a->ints[PN], dmax = (int)c->scale;
    if (dmax < 1) dmax = 1;
    if (dmax > D_MAX) dmax = D_MAX;
    int *d = a->buf[DIM], *T = a->buf[LEN];
    uint64_t stream = (uint64_t)case_index << 8;
    for (int i = 0; i < n; i++) {
        d[i] = draw(seed, stream + DIM, (uint64_t)i, dmax);
        int t;
        switch (i % 4) {
        case 0: t = 2 * d[i]; break;
        case 1: t = 2 * d[i] + 1; break;
        case 2: t = draw(seed, stream + LEN, (uint64_t)i, 4 * dmax); break;
        default: t = draw(seed, stream + LEN, (uint64_t)i, T_MAX); break;
        }
        T[i] = t < T_MAX ? t : T_MAX;
    }
}

static judge_status reference(void *const *outs, const judge_args *a)
{
    const int *d = a->buf[DIM], *T = a->buf[LEN];
    for (int i = 0; i < a->ints[PN]; i++)
        att_attn_flops_ref((long long *)outs[PROJ] + i, (long long *)outs[ATTN] + i,
                           (long long *)outs[CROSS] + i, d[i], T[i]);
    return JUDGE_OK;
}

/* ---- what mistaken code returns: each knob of the problem's mistakes
 * (problem.json) is one plain way to count wrongly, as a learner would ---- */

/* What `int` arithmetic gives on every target the judge runs on: the product
 * wraps modulo 2^32 (computed unsigned here, where wrapping is defined). */
static long long wrap32(long long v) { return (int32_t)(uint32_t)(uint64_t)v; }

static judge_status simulate(void *const *outs, const judge_args *a, const judge_changes *ch,
                             int variant)
{
    (void)variant;
    const int *d = a->buf[DIM], *T = a->buf[LEN];
    long long *proj = outs[PROJ], *attn = outs[ATTN], *cross = outs[CROSS];
    for (int i = 0; i < a->ints[PN]; i++) {
        long long D = d[ch->query_inputs == FORM_QUERY_INPUTS_FIRST_D ? 0 : i];
        long long L = T[ch->query_inputs == FORM_QUERY_INPUTS_FIRST_T ? 0 : i];
        long long per_mac = ch->flop_unit ? 1 : 2, n_proj = ch->proj_count ? 3 : 4;
        long long n_mm = ch->attn_count == FORM_ATTN_COUNT_ONE ? 1 : 2;
        proj[i] = n_proj * per_mac * L * D * D;
        attn[i] = n_mm * per_mac * L * L * D;
        /* n_mm T^2 d > n_proj T d^2  <=>  T > n_proj d / n_mm. */
        cross[i] = n_proj * D / n_mm + (ch->crossover && (n_proj * D) % n_mm == 0 ? 0 : 1);
        if (ch->attn_count == FORM_ATTN_COUNT_D_SQUARED) attn[i] = n_mm * per_mac * L * D * D;
        if (ch->attn_count >= FORM_ATTN_COUNT_CAUSAL) {   /* T(T+1)/2 scores a matmul */
            attn[i] = per_mac * L * (L + 1) * D;
            /* T (T+1) d > n_proj T d^2  <=>  T + 1 > n_proj d. */
            if (ch->attn_count == FORM_ATTN_COUNT_CAUSAL_CROSSOVER) cross[i] = n_proj * D - (ch->crossover ? 1 : 0);
        }
        switch (ch->int32) {   /* where the int arithmetic wraps */
        case FORM_INT32_PROJ: proj[i] = wrap32(proj[i]); break;
        case FORM_INT32_ATTN: attn[i] = wrap32(attn[i]); break;
        case FORM_INT32_BOTH: proj[i] = wrap32(proj[i]); attn[i] = wrap32(attn[i]); break;
        case FORM_INT32_D_SQUARED: proj[i] = 8 * L * wrap32(D * D); break;
        case FORM_INT32_T_SQUARED: attn[i] = 4 * D * wrap32(L * L); break;
        case FORM_INT32_T_TIMES_D:   /* int 8*T*d (4*T*d), times an unsigned 64-bit d (T) */
            proj[i] = (long long)((uint64_t)wrap32(8 * L * D) * (uint64_t)D);
            attn[i] = (long long)((uint64_t)wrap32(4 * L * D) * (uint64_t)L);
            break;
        case FORM_INT32_UNSIGNED:
            proj[i] = (long long)(uint32_t)(uint64_t)proj[i];
            attn[i] = (long long)(uint32_t)(uint64_t)attn[i];
            break;
        case FORM_INT32_PER_MATMUL: proj[i] = 4 * wrap32(2 * L * D * D); attn[i] = 2 * wrap32(2 * L * L * D); break;
        case FORM_INT32_TD_PROJ: proj[i] = 8 * wrap32(L * D) * D; break;
        default: break;
        }
        if (ch->arith == FORM_ARITH_DOUBLE) {   /* in this order, each product rounded to 53 bits */
            proj[i] = (long long)(8.0 * (double)L * (double)D * (double)D);
            attn[i] = (long long)(4.0 * (double)L * (double)L * (double)D);
        } else if (ch->arith == FORM_ARITH_FLOAT) {   /* to 24 bits */
            proj[i] = (long long)(8.0f * (float)L * (float)D * (float)D);
            attn[i] = (long long)(4.0f * (float)L * (float)L * (float)D);
        }
    }
    return JUDGE_OK;
}

static void coords(char *buf, size_t n, const judge_args *a, int p, size_t i, judge_lang lang)
{
    (void)p;
    buf[0] = 0;
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_QUERY_FLOPS, (int)i, ((const int *)a->buf[DIM])[i],
                ((const int *)a->buf[LEN])[i]);
}

const judge_ops judge_flops_ops = {
    "attention-flops", param_names, N_PARAMS, make_inputs, reference, simulate, coords, NULL, NULL,
};
