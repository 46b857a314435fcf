/* problem_paged.c: what the judge knows about exercise 59, one decode step
 * over a paged KV cache, beyond its data in problems/59-paged-decode: how the
 * block pool and the tables are made (scattered, a shared prefix, stale rows
 * and unused entries that mislead), the reference (the core's
 * att_paged_decode_ref), and what the classic paging mistakes read. There is
 * one query per sequence, so there is no mask picture; the property
 * (paged decode equals contiguous decode) is tested on the reference in
 * tests/ref_paged_test.c. */
#include <math.h>
#include <stdlib.h>
#include "att.h"
#include "form.h"
#include "judge.h"

enum { OUT, Q, KC, VC, TABLE, LENS, PB, PH, PHKV, PD, PNB, PBS, PMB, N_PARAMS };

static const char *const param_names[N_PARAMS] = {
    "out", "q", "k_cache", "v_cache", "block_table", "seq_lens",
    "B", "H", "Hkv", "D", "num_blocks", "block_size", "max_blocks",
};

/* Blocks at the top of the pool that no table names: what the mistakes
 * that read past a block (block and row swapped, a query head used as the
 * kv head) run into is then stale cache, not memory past its end. The cases
 * give num_blocks >= B * max_blocks + reserve (problem.json). */
static int reserve(int H, int Hkv, int bs, int mb)
{
    int rows = (mb - 1) / bs, heads = (H / Hkv - 1 + bs - 1) / bs;
    return (rows > heads ? rows : heads) + 1;
}

static int gcd(int x, int y)
{
    while (y) {
        int t = x % y;
        x = y;
        y = t;
    }
    return x;
}

/* Does row `row` of block blk hold a key of some sequence? */
static int owned(const int *table, const int *lens, int B, int bs, int mb, int blk, int row)
{
    for (int b = 0; b < B; b++)
        for (int i = 0; i * bs + row < lens[b]; i++)
            if (table[b * mb + i] == blk) return 1;
    return 0;
}

/* Sequence 0 fills its whole table, sequence 1 starts with sequence 0's
 * first blocks (a shared prefix) and is at least one block long, sequence 2
 * has one key, the rest are random. Blocks are handed out in a scattered
 * order (an affine permutation of the pool); an unused entry names a block
 * another sequence owns (read, it gives plausible wrong keys rather than a
 * crash). Rows no sequence owns (free blocks, the tail of each last block)
 * are stale and larger than the real ones, so attending to them shows. The
 * case's scale multiplies q. */
static void make_inputs(judge_args *a, const judge_case *c, uint64_t seed, int case_index)
{
    int B = a->ints[PB], nb = a->ints[PNB], bs = a->ints[PBS], mb = a->ints[PMB];
    int n_pool = nb - reserve(a->ints[PH], a->ints[PHKV], bs, mb), next = 0;
    uint64_t stream = (uint64_t)case_index << 8;
    int *table = a->buf[TABLE], *lens = a->buf[LENS];
    if (n_pool < 1) n_pool = nb;
    int step = 1 + (int)(att_rng_u64(seed, stream + PNB, 0) % (uint64_t)n_pool);
    int first = (int)(att_rng_u64(seed, stream + PNB, 1) % (uint64_t)n_pool);
    while (gcd(step, n_pool) != 1) step++;
    for (int b = 0; b < B; b++) {
        uint64_t r = att_rng_u64(seed, stream + LENS, (uint64_t)b);
        lens[b] = b == 0 ? mb * bs : b == 1 ? bs + (int)(r % (uint64_t)(mb * bs - bs + 1))
                : b == 2 ? 1 : 1 + (int)(r % (uint64_t)(mb * bs));
        int shared = b == 1 ? (lens[b] / bs + 1) / 2 : 0;
        for (int i = 0; i * bs < lens[b]; i++)
            table[b * mb + i] = i < shared ? table[i] : (int)((first + (long long)step * next++) % n_pool);
    }
    for (int b = 0; b < B; b++) {
        int other = (b + 1) % B, used = (lens[other] + bs - 1) / bs;
        for (int i = (lens[b] + bs - 1) / bs; i < mb; i++)
            table[b * mb + i] = table[other * mb +
                (int)(att_rng_u64(seed, stream + TABLE, (uint64_t)(b * mb + i)) % (uint64_t)used)];
    }
    size_t row = (size_t)a->ints[PHKV] * a->ints[PD];
    float *kc = a->buf[KC], *vc = a->buf[VC];
    att_fill_uniform(kc, a->len[KC], seed, stream + KC, 1.0f);
    att_fill_uniform(vc, a->len[VC], seed, stream + VC, 1.0f);
    for (int r = 0; r < nb * bs; r++) {
        if (owned(table, lens, B, bs, mb, r / bs, r % bs)) continue;
        for (size_t e = (size_t)r * row; e < (size_t)(r + 1) * row; e++) {
            kc[e] *= 3.0f;
            vc[e] = vc[e] * 4.0f + 2.0f;
        }
    }
    att_fill_uniform(a->buf[Q], a->len[Q], seed, stream + Q, 2.0f * c->scale);
    if (c->negative) {   /* q <= 0 and k >= 0: every score <= 0 */
        judge_sign(a->buf[Q], a->len[Q], -1);
        judge_sign(kc, a->len[KC], 1);
    }
}

static judge_status reference(void *const *outs, const judge_args *a)
{
    float *scratch = malloc(sizeof(float) * (size_t)a->ints[PMB] * a->ints[PBS]);
    if (!scratch) return JUDGE_ENOMEM;
    att_status st = att_paged_decode_ref(outs[OUT], a->buf[Q], a->buf[KC], a->buf[VC], a->buf[TABLE],
                                         a->buf[LENS], a->ints[PB], a->ints[PH], a->ints[PHKV],
                                         a->ints[PD], a->ints[PNB], a->ints[PBS], a->ints[PMB], scratch);
    free(scratch);
    return st == ATT_OK ? JUDGE_OK : JUDGE_EREFERENCE;
}

/* The core's SIMD kernel, one thread, for the speed runs (speed.c). */
static judge_status speed_core(void *const *outs, const judge_args *a)
{
    int H = a->ints[PH], Hkv = a->ints[PHKV], bs = a->ints[PBS], mb = a->ints[PMB];
    size_t n = att_paged_decode_scratch_floats(H, Hkv, bs, mb, 1);
    float *scratch = malloc(sizeof(float) * (n ? n : 1));
    if (!scratch) return JUDGE_ENOMEM;
    att_status st = att_paged_decode_simd(outs[OUT], a->buf[Q], a->buf[KC], a->buf[VC], a->buf[TABLE],
                                          a->buf[LENS], a->ints[PB], H, Hkv, a->ints[PD], a->ints[PNB], bs,
                                          mb, 1, scratch);
    free(scratch);
    return st == ATT_OK ? JUDGE_OK : JUDGE_EREFERENCE;
}

/* ---- what mistaken code returns: each query head's keys and values
 * gathered from where code with the knobs of the problem's mistakes reads
 * them (flat offsets, as C computes them: a read past the cache's end is the
 * judge's NaN canary), then attention over them by the shared form (form.c),
 * the judge's model of wrong code (not a reference) ---- */

/* The offset in floats of dim 0 of (key p of sequence b, kv head g), or -1
 * when that code would read outside the table or the cache. */
static ptrdiff_t read_at(const judge_args *a, const judge_changes *ch, int b, int p, int g)
{
    int B = a->ints[PB], Hkv = a->ints[PHKV], D = a->ints[PD], nb = a->ints[PNB];
    int bs = a->ints[PBS], mb = a->ints[PMB];
    const int *table = a->buf[TABLE];
    int swapped = ch->paged_block == FORM_PAGED_BLOCK_SWAPPED;
    ptrdiff_t entry = (ptrdiff_t)b * mb + (swapped ? p % bs : p / bs);
    if (entry >= (ptrdiff_t)B * mb) return -1;
    ptrdiff_t blk = ch->paged_block == FORM_PAGED_BLOCK_LOGICAL ? p / bs : table[entry];
    ptrdiff_t row = swapped ? p / bs : p % bs;
    ptrdiff_t at = ch->paged_layout == FORM_PAGED_LAYOUT_HND ? ((blk * Hkv + g) * bs + row) * D
                 : ch->paged_layout == FORM_PAGED_LAYOUT_ROW_STRIDE_D ? (blk * bs + row + g) * D
                 : ((blk * bs + row) * Hkv + g) * D;
    return at < 0 || at + D > (ptrdiff_t)nb * bs * Hkv * D ? -1 : at;
}

/* How many of its n keys code with the changes ch reads, in blocks of bs. */
static int keys_read(const judge_changes *ch, int n, int bs)
{
    switch (ch->paged_keys) {
    case FORM_PAGED_KEYS_WHOLE_BLOCK: return (n + bs - 1) / bs * bs;
    case FORM_PAGED_KEYS_FLOOR_BLOCKS: return n / bs * bs;
    case FORM_PAGED_KEYS_MOD_LAST: return n % bs ? n : n - bs;
    case FORM_PAGED_KEYS_ONE_SHORT: return n - 1;
    default: return n;
    }
}

static judge_status simulate(void *const *outs, const judge_args *a, const judge_changes *ch,
                             int variant)
{
    int B = a->ints[PB], H = a->ints[PH], Hkv = a->ints[PHKV], D = a->ints[PD];
    int bs = a->ints[PBS], S = a->ints[PMB] * bs;
    const int *lens = a->buf[LENS];
    const float *kc = a->buf[KC], *vc = a->buf[VC];
    size_t n = (size_t)B * S * H * D;   /* [B, S, H, D]: one row per query head */
    float *k = malloc(sizeof(float) * 2 * (n ? n : 1)), *v = k + n;
    int *keys = malloc(sizeof(int) * (size_t)B);
    if (!k || !keys) {
        free(k);
        free(keys);
        return JUDGE_ENOMEM;
    }
    for (int b = 0; b < B; b++) {
        keys[b] = keys_read(ch, lens[b], bs);
        for (int p = 0; p < keys[b]; p++)
            for (int h = 0; h < H; h++) {
                int g = ch->paged_kv_head == FORM_PAGED_KV_HEAD_QUERY_HEAD ? h
                      : ch->gqa == FORM_GQA_MODULO ? h % Hkv : ch->gqa == FORM_GQA_FIRST ? 0
                      : h / (H / Hkv);
                ptrdiff_t at = read_at(a, ch, b, p, g);
                size_t to = (((size_t)b * S + p) * H + h) * D;
                for (int c = 0; c < D; c++) {
                    k[to + c] = at < 0 ? NAN : kc[at + c];
                    v[to + c] = at < 0 ? NAN : vc[at + c];
                }
            }
    }
    /* The kv head of each query head is in the gather already. */
    judge_changes rest = *ch;
    rest.gqa = FORM_GQA_RIGHT;
    form_view one = { NULL, (ptrdiff_t)H * D, D, 0, 1 };   /* [B, H, D]: one query per head */
    form_view rows = { NULL, (ptrdiff_t)S * H * D, D, (ptrdiff_t)H * D, 1 };
    form_attn f = { .B = B, .H = H, .Hkv = H, .T = 1, .S = S, .D = D, .kv_len = keys };
    f.q = one;
    f.q.p = a->buf[Q];
    if (ch->batch == FORM_BATCH_IGNORED) f.q.sb = 0;   /* every sequence's query read as sequence 0's */
    f.out = one;
    f.out.p = outs[OUT];
    f.k = rows;
    f.k.p = k;
    f.v = rows;
    f.v.p = v;
    judge_status st = form_attention(&f, &rest, variant);
    free(k);
    free(keys);
    return st;
}

static void coords(char *buf, size_t n, const judge_args *a, int p, size_t i, judge_lang lang)
{
    int H = a->ints[PH], D = a->ints[PD], group = H / a->ints[PHKV];
    int h = (int)(i / (size_t)D % (size_t)H);
    (void)p;   /* out is the only output */
    buf[0] = 0;
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_B, (int)(i / ((size_t)D * H)));
    if (group > 1) judge_coord(buf, n, lang, JUDGE_MSG_AXIS_H_GROUP, h, h / group);
    else judge_coord(buf, n, lang, JUDGE_MSG_AXIS_H, h);
    judge_coord(buf, n, lang, JUDGE_MSG_AXIS_C, (int)(i % (size_t)D));
}

const judge_ops judge_paged_ops = {
    "paged-decode", param_names, N_PARAMS, make_inputs, reference, simulate, coords, speed_core,
    form_variants,   /* its attention is the form's, with the form's ways */
};
