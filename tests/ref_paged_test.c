/* ref_paged_test.c: tests of the reference kernel of exercise 59, decoding
 * over a paged KV cache (core/att_ref_paged.c): paged decode equals
 * contiguous decode (gather each sequence's keys, then att_attn_ref) for
 * random scattered and shared tables; what it must not read; its edge rules
 * and errors; a small example by hand. Built and run by tests/ref.test.mjs.
 *
 *   ref_paged_test            run every test, print "N passed, N failed"
 *   ref_paged_test --list     the test names, one a line
 *   ref_paged_test NAME       run one test
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "att.h"
#include "check.h"

static float *uniform(size_t n, uint64_t stream, float scale)
{
    float *x = xmalloc(n * sizeof *x);
    att_fill_uniform(x, n, 59, stream, scale);
    return x;
}

typedef struct {
    int B, H, Hkv, D, num_blocks, block_size, max_blocks;
} shape;

/* A random paged cache of shape z: lengths in [1, max_blocks * block_size]
 * (sequence 0 full), blocks drawn from a shuffled pool, sequence 1 sharing
 * sequence 0's first full blocks, unused entries naming real blocks. Needs
 * num_blocks >= B * max_blocks. */
static void random_table(int *table, int *lens, const shape *z, uint64_t stream)
{
    int bs = z->block_size, mb = z->max_blocks, nb = z->num_blocks;
    int *pool = xmalloc((size_t)nb * sizeof(int)), next = 0;
    for (int i = 0; i < nb; i++) pool[i] = i;
    for (int i = nb - 1; i > 0; i--) {   /* Fisher-Yates */
        int j = (int)(att_rng_u64(59, stream, (uint64_t)i) % (uint64_t)(i + 1)), t = pool[i];
        pool[i] = pool[j];
        pool[j] = t;
    }
    for (int b = 0; b < z->B; b++) {
        lens[b] = b == 0 ? mb * bs : 1 + (int)(att_rng_u64(59, stream + 1, (uint64_t)b) % (uint64_t)(mb * bs));
        int used = (lens[b] + bs - 1) / bs, shared = b == 1 ? lens[b] / bs : 0;
        for (int i = 0; i < mb; i++)
            table[b * mb + i] = i < shared ? table[i]
                              : i < used ? pool[next++]
                              : pool[att_rng_u64(59, stream + 2, (uint64_t)(b * mb + i)) % (uint64_t)nb];
    }
    free(pool);
}

/* Each sequence's keys gathered from the blocks into [n, Hkv, D], then the
 * contiguous kernel: the definition the paged one must equal. */
static void contiguous_decode(float *out, const float *q, const float *kc, const float *vc,
                              const int *table, const int *lens, const shape *z, float *scratch)
{
    size_t row = (size_t)z->Hkv * z->D;
    int S = z->max_blocks * z->block_size;
    float *k = xmalloc((size_t)S * row * sizeof(float)), *v = xmalloc((size_t)S * row * sizeof(float));
    for (int b = 0; b < z->B; b++) {
        for (int p = 0; p < lens[b]; p++) {
            size_t at = ((size_t)table[b * z->max_blocks + p / z->block_size] * z->block_size +
                         (size_t)(p % z->block_size)) * row;
            memcpy(k + (size_t)p * row, kc + at, row * sizeof(float));
            memcpy(v + (size_t)p * row, vc + at, row * sizeof(float));
        }
        size_t hd = (size_t)z->H * z->D;
        att_attn_desc a = { .T = 1, .S = lens[b], .H = z->H, .Hkv = z->Hkv, .D = z->D,
                            .scale = 1.0f / sqrtf((float)z->D), .ldo = hd, .hso = (size_t)z->D,
                            .ldq = hd, .hsq = (size_t)z->D, .ldkv = row, .hskv = (size_t)z->D };
        CHECK(att_attn_ref(out + b * hd, q + b * hd, k, v, NULL, &a, scratch) == ATT_OK, "contiguous");
    }
    free(k);
    free(v);
}

static const shape shapes[] = {
    { 1, 1, 1, 1, 1, 1, 1 }, { 2, 2, 1, 3, 15, 1, 7 }, { 3, 4, 2, 8, 20, 4, 6 },
    { 3, 6, 3, 17, 23, 5, 7 }, { 2, 3, 3, 5, 9, 16, 4 }, { 4, 8, 2, 16, 65, 16, 16 },
    { 5, 7, 1, 9, 40, 3, 8 },
};

static size_t cache_floats(const shape *z)
{
    return (size_t)z->num_blocks * z->block_size * z->Hkv * z->D;
}

/* The property: paged decode equals contiguous decode, bit for bit
 * (the same keys in the same order, the same arithmetic), for random
 * scattered tables with a shared prefix, over several tables per shape. */
static void test_paged_equals_contiguous(void)
{
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const shape *z = &shapes[s];
        for (uint64_t t = 0; t < 4; t++) {
            size_t nq = (size_t)z->B * z->H * z->D, nc = cache_floats(z);
            float *q = uniform(nq, 10 * t + 1, 2.0f), *kc = uniform(nc, 10 * t + 2, 1.0f);
            float *vc = uniform(nc, 10 * t + 3, 1.0f);
            float *got = xmalloc(nq * sizeof(float)), *want = xmalloc(nq * sizeof(float));
            float *scratch = xmalloc((size_t)z->max_blocks * z->block_size * sizeof(float));
            int *table = xmalloc((size_t)z->B * z->max_blocks * sizeof(int));
            int *lens = xmalloc((size_t)z->B * sizeof(int));
            random_table(table, lens, z, 100 * s + 10 * t);
            att_status st = att_paged_decode_ref(got, q, kc, vc, table, lens, z->B, z->H, z->Hkv, z->D,
                                                 z->num_blocks, z->block_size, z->max_blocks, scratch);
            CHECK(st == ATT_OK, "shape %zu: %s", s, att_strerror(st));
            contiguous_decode(want, q, kc, vc, table, lens, z, scratch);
            int bad = 0;
            for (size_t i = 0; i < nq; i++) bad += got[i] != want[i];
            CHECK(bad == 0, "shape %zu table %d: %d of %zu outputs differ from contiguous decode", s,
                  (int)t, bad, nq);
            free(q); free(kc); free(vc); free(got); free(want); free(scratch); free(table); free(lens);
        }
    }
}

/* What the kernel must not read: rows past seq_lens[b] of the last block,
 * blocks no sequence uses, and the unused table entries. Changing all of
 * them changes nothing. With Hkv = H it is plain multi-head decode. */
static void test_reads_only_the_sequence(void)
{
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const shape *z = &shapes[s];
        size_t nq = (size_t)z->B * z->H * z->D, nc = cache_floats(z), row = (size_t)z->Hkv * z->D;
        float *q = uniform(nq, 31, 2.0f), *kc = uniform(nc, 32, 1.0f), *vc = uniform(nc, 33, 1.0f);
        float *a = xmalloc(nq * sizeof(float)), *b2 = xmalloc(nq * sizeof(float));
        float *scratch = xmalloc((size_t)z->max_blocks * z->block_size * sizeof(float));
        int *table = xmalloc((size_t)z->B * z->max_blocks * sizeof(int)), *lens = xmalloc((size_t)z->B * sizeof(int));
        unsigned char *live = xmalloc((size_t)z->num_blocks * z->block_size);
        random_table(table, lens, z, 500 + s);
        CHECK(att_paged_decode_ref(a, q, kc, vc, table, lens, z->B, z->H, z->Hkv, z->D, z->num_blocks,
                                   z->block_size, z->max_blocks, scratch) == ATT_OK, "ok");
        memset(live, 0, (size_t)z->num_blocks * z->block_size);
        for (int b = 0; b < z->B; b++)
            for (int p = 0; p < lens[b]; p++)
                live[(size_t)table[b * z->max_blocks + p / z->block_size] * z->block_size + p % z->block_size] = 1;
        for (size_t r = 0; r < (size_t)z->num_blocks * z->block_size; r++)
            for (size_t c = 0; !live[r] && c < row; c++) {
                kc[r * row + c] = 1e30f;
                vc[r * row + c] = NAN;
            }
        for (int b = 0; b < z->B; b++)
            for (int i = (lens[b] + z->block_size - 1) / z->block_size; i < z->max_blocks; i++)
                table[b * z->max_blocks + i] = -1 - i;
        CHECK(att_paged_decode_ref(b2, q, kc, vc, table, lens, z->B, z->H, z->Hkv, z->D, z->num_blocks,
                                   z->block_size, z->max_blocks, scratch) == ATT_OK, "ok");
        int bad = 0;
        for (size_t i = 0; i < nq; i++) bad += a[i] != b2[i];
        CHECK(bad == 0, "shape %zu: %d outputs moved with rows or entries the sequences do not own", s, bad);
        free(q); free(kc); free(vc); free(a); free(b2); free(scratch); free(table); free(lens); free(live);
    }
}

/* Edge rules: one key gives that key's value; Hkv = H and Hkv = 1 map heads
 * as GQA says; lengths and used entries out of range are refused touching
 * nothing. */
static void test_paged_edges(void)
{
    enum { H = 4, D = 3, NB = 6, BS = 2, MB = 3 };
    float *kc = uniform((size_t)NB * BS * 2 * D, 40, 1.0f), *vc = uniform((size_t)NB * BS * 2 * D, 41, 1.0f);
    float *q = uniform(H * D, 42, 1.0f), out[H * D], scratch[MB * BS];
    int table[MB] = { 4, 1, 3 }, one[1] = { 1 };
    /* One key (row 0 of block 4), Hkv = 2: heads 0, 1 read kv head 0, 2, 3 kv head 1. */
    CHECK(att_paged_decode_ref(out, q, kc, vc, table, one, 1, H, 2, D, NB, BS, MB, scratch) == ATT_OK, "ok");
    for (int h = 0; h < H; h++)
        for (int c = 0; c < D; c++)
            CHECK(out[h * D + c] == vc[(size_t)(4 * BS) * 2 * D + (size_t)(h / 2) * D + c],
                  "one key: head %d dim %d is %g", h, c, out[h * D + c]);
    float before = out[0];
    int lens[3][1] = { { 0 }, { MB * BS + 1 }, { -2 } };
    for (int i = 0; i < 3; i++)
        CHECK(att_paged_decode_ref(out, q, kc, vc, table, lens[i], 1, H, 2, D, NB, BS, MB, scratch) ==
              ATT_EBLOCKTABLE, "length %d must be refused", lens[i][0]);
    int bad_tables[3][MB] = { { 4, -1, 3 }, { 4, 1, NB }, { -1, 9, 9 } };
    int five[1] = { 5 };
    for (int i = 0; i < 3; i++)
        CHECK(att_paged_decode_ref(out, q, kc, vc, bad_tables[i], five, 1, H, 2, D, NB, BS, MB, scratch) ==
              ATT_EBLOCKTABLE, "table %d must be refused", i);
    int unused[MB] = { 4, -1, 77 };   /* entries past the last used block: never read */
    int two[1] = { 2 };
    CHECK(att_paged_decode_ref(out, q, kc, vc, unused, two, 1, H, 2, D, NB, BS, MB, scratch) == ATT_OK,
          "garbage past the used entries must be accepted");
    CHECK(att_paged_decode_ref(out, q, kc, vc, table, two, 1, H, 3, D, NB, BS, MB, scratch) == ATT_EKVHEADS,
          "H %% Hkv != 0 must be refused");
    out[0] = before;
    CHECK(att_paged_decode_ref(out, q, kc, vc, table, five, 1, H, 2, 0, NB, BS, MB, scratch) == ATT_EBADSHAPE,
          "D = 0 must be refused");
    CHECK(out[0] == before, "a refused call touched out");
    free(kc); free(vc); free(q);
}

/* Exercise 59's worked example, computed by hand (statement.en.md): two
 * sequences sharing block 2, D = 2, H = 2 query heads on one kv head. */
static void test_paged_example(void)
{
    static const float kc[] = { 0, 1,  9, 9,  9, 9,  9, 9,  1, 0,  1, 1,  9, 9,  9, 9 };
    static const float vc[] = { 3, 0,  9, 9,  9, 9,  9, 9,  1, 2,  0, 4,  9, 9,  9, 9 };
    static const float q[] = { 2, 0,  0, 2,   0, 0,  2, 2 };
    static const int table[] = { 2, 0,  2, 0 }, lens[] = { 3, 2 };
    float out[8], scratch[4];
    CHECK(att_paged_decode_ref(out, q, kc, vc, table, lens, 2, 2, 1, 2, 4, 2, 2, scratch) == ATT_OK, "ok");
    /* By hand, in long double: each query's softmax over its keys. */
    static const int keys[2][3] = { { 4, 5, 0 }, { 4, 5, -1 } };   /* cache rows */
    for (int b = 0; b < 2; b++)
        for (int h = 0; h < 2; h++) {
            long double z = 0, o[2] = { 0, 0 };
            for (int j = 0; j < lens[b]; j++) {
                int r = keys[b][j];
                long double s = (q[(b * 2 + h) * 2] * kc[r * 2] + q[(b * 2 + h) * 2 + 1] * kc[r * 2 + 1]) / sqrtl(2.0L);
                long double e = expl(s);
                z += e;
                o[0] += e * vc[r * 2];
                o[1] += e * vc[r * 2 + 1];
            }
            for (int c = 0; c < 2; c++)
                CHECK(fabsl(out[(b * 2 + h) * 2 + c] - o[c] / z) < 1e-6L, "b=%d h=%d dim %d: %g, by hand %Lg",
                      b, h, c, out[(b * 2 + h) * 2 + c], o[c] / z);
        }
    /* Sequence 1, head 0 has q = 0: equal weights, the mean of its two values. */
    CHECK(fabsf(out[4] - 0.5f) < 1e-7f && fabsf(out[5] - 3.0f) < 1e-7f, "mean: %g %g", out[4], out[5]);
}

static const check_test tests[] = {
    { "paged_equals_contiguous", test_paged_equals_contiguous },
    { "reads_only_the_sequence", test_reads_only_the_sequence },
    { "paged_edges", test_paged_edges },
    { "paged_example", test_paged_example },
};

int main(int argc, char **argv)
{
    return check_main(tests, (int)(sizeof tests / sizeof tests[0]), argc, argv, NULL);
}
