/* att_ref_paged.c: the reference kernel of decoding over a paged KV cache
 * (exercise 59): plain loops, double accumulation, the max from -INFINITY,
 * written as att_attn_ref is so that a paged cache and the same keys laid
 * out contiguously give the same bits. Semantics in att.h. */
#include <math.h>
#include "att.h"

/* Where key p of a sequence lives: row p % block_size of its table's entry
 * p / block_size, as an offset in floats of the [num_blocks, block_size,
 * Hkv, D] cache (kv head 0). */
static size_t key_at(const int *table, int p, int block_size, size_t row)
{
    return ((size_t)table[p / block_size] * block_size + (size_t)(p % block_size)) * row;
}

att_status att_paged_check(const int *block_table, const int *seq_lens, int B, int H,
                           int Hkv, int D, int num_blocks, int block_size, int max_blocks)
{
    if (B < 1 || H < 1 || Hkv < 1 || D < 1 || num_blocks < 1 || block_size < 1 || max_blocks < 1)
        return ATT_EBADSHAPE;
    if (H % Hkv) return ATT_EKVHEADS;
    for (int b = 0; b < B; b++) {
        int n = seq_lens[b];
        if (n < 1 || n > max_blocks * block_size) return ATT_EBLOCKTABLE;
        for (int i = 0; i < (n + block_size - 1) / block_size; i++) {
            int blk = block_table[(size_t)b * max_blocks + i];
            if (blk < 0 || blk >= num_blocks) return ATT_EBLOCKTABLE;
        }
    }
    return ATT_OK;
}

att_status att_paged_decode_ref(float *out, const float *q, const float *k_cache,
                                const float *v_cache, const int *block_table,
                                const int *seq_lens, int B, int H, int Hkv, int D,
                                int num_blocks, int block_size, int max_blocks,
                                float *scratch)
{
    att_status st = att_paged_check(block_table, seq_lens, B, H, Hkv, D, num_blocks, block_size,
                                    max_blocks);
    if (st) return st;   /* all checked first: an error touches nothing */
    size_t row = (size_t)Hkv * D;   /* one cached position: every kv head */
    float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++) {
        const int *table = block_table + (size_t)b * max_blocks;
        int n = seq_lens[b];
        for (int h = 0; h < H; h++) {
            size_t g = (size_t)(h / (H / Hkv)) * D;
            const float *qh = q + ((size_t)b * H + h) * D;
            float max = -INFINITY;
            for (int p = 0; p < n; p++) {
                const float *kp = k_cache + key_at(table, p, block_size, row) + g;
                double dot = 0.0;
                for (int c = 0; c < D; c++) dot += (double)qh[c] * kp[c];
                scratch[p] = (float)(scale * dot);
                if (scratch[p] > max) max = scratch[p];
            }
            double sum = 0.0;
            for (int p = 0; p < n; p++) {   /* n >= 1: max is finite */
                double e = exp((double)scratch[p] - max);
                scratch[p] = (float)e;
                sum += e;
            }
            float *oh = out + ((size_t)b * H + h) * D;
            for (int c = 0; c < D; c++) {
                double acc = 0.0;
                for (int p = 0; p < n; p++)
                    acc += (double)scratch[p] * v_cache[key_at(table, p, block_size, row) + g + c];
                oh[c] = (float)(acc / sum);
            }
        }
    }
    return ATT_OK;
}
