/* expect: WA */
/* Copies the value of each sequence's first key (kv head mapped right) into out, with no attention at all. */
#include <string.h>

void paged_decode(float *out, const float *q, const float *k_cache, const float *v_cache,
                  const int *block_table, const int *seq_lens,
                  int B, int H, int Hkv, int D, int num_blocks, int block_size, int max_blocks)
{
    (void)q; (void)k_cache; (void)seq_lens; (void)num_blocks;
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            memcpy(out + (b * H + h) * D,
                   v_cache + ((size_t)block_table[b * max_blocks] * block_size * Hkv + h / (H / Hkv)) * D,
                   sizeof(float) * D);
}
