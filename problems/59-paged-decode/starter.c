/* Exercise 59: one decode step over a paged KV cache.
 * Fill in paged_decode() below; the statement has the formula, the cache
 * and block table layout, the edge rules and an example. */
#include <math.h>
#include <stdlib.h>

void paged_decode(float *out, const float *q, const float *k_cache, const float *v_cache,
                  const int *block_table, const int *seq_lens,
                  int B, int H, int Hkv, int D, int num_blocks, int block_size, int max_blocks)
{
    /* TODO: out is [B, H, D]. For each sequence b and query head h, attend
     * over keys p = 0 .. seq_lens[b] - 1, each found at row p % block_size of
     * block block_table[b * max_blocks + p / block_size], kv head
     * h / (H / Hkv). Write every element of out. */
    for (int i = 0; i < B * H * D; i++)
        out[i] = 0.0f;
}
