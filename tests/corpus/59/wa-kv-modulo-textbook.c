/* expect: WA kv_head_modulo */
/* Maps query head h to kv head h % Hkv (repeat instead of repeat_interleave). */
#include <math.h>
#include <stdlib.h>

void paged_decode(float *out, const float *q, const float *k_cache, const float *v_cache,
                  const int *block_table, const int *seq_lens,
                  int B, int H, int Hkv, int D, int num_blocks, int block_size, int max_blocks)
{
    (void)num_blocks;
    float *s = malloc(sizeof(float) * max_blocks * block_size);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            int g = h % Hkv, n = seq_lens[b];
            float m = -INFINITY, l = 0.0f;
            for (int p = 0; p < n; p++) {
                int blk = block_table[b * max_blocks + p / block_size], row = p % block_size;
                const float *k = k_cache + ((blk * block_size + row) * Hkv + g) * D;
                float dot = 0.0f;
                for (int c = 0; c < D; c++) dot += q[(b * H + h) * D + c] * k[c];
                s[p] = dot / sqrtf((float)D);
                if (s[p] > m) m = s[p];
            }
            for (int p = 0; p < n; p++) {
                s[p] = expf(s[p] - m);
                l += s[p];
            }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int p = 0; p < n; p++) {
                    int blk = block_table[b * max_blocks + p / block_size], row = p % block_size;
                    acc += s[p] * v_cache[((blk * block_size + row) * Hkv + g) * D + c];
                }
                out[(b * H + h) * D + c] = acc / l;
            }
        }
    free(s);
}
