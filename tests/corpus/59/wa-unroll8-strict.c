/* expect: WA dot_last_block_skipped */
/* an 8-wide unrolled dot (for the vectoriser) whose main loop stops while c + 8 < D; the tail from D & ~7 */
#include <math.h>
#include <stdlib.h>

void paged_decode(float *out, const float *q, const float *k_cache, const float *v_cache,
                  const int *block_table, const int *seq_lens,
                  int B, int H, int Hkv, int D, int num_blocks, int block_size, int max_blocks)
{
    (void)num_blocks;   /* the table only names blocks that exist */
    int group = H / Hkv;   /* query heads per kv head */
    float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * max_blocks * block_size);
    for (int b = 0; b < B; b++) {
        const int *table = block_table + b * max_blocks;
        int n = seq_lens[b];
        for (int h = 0; h < H; h++) {
            const float *qh = q + (b * H + h) * D;
            int g = h / group;
            float max = -INFINITY, sum = 0.0f;
            for (int j = 0; j < n; j++) {
                int blk = table[j / block_size], row = j % block_size;
                const float *kj = k_cache + ((blk * block_size + row) * Hkv + g) * D;
                float s = 0.0f;
                int c;
                for (c = 0; c + 8 < D; c += 8)
                    for (int u = 0; u < 8; u++) s += qh[c + u] * kj[c + u];
                for (c = D & ~7; c < D; c++) s += qh[c] * kj[c];
                p[j] = s * scale;
                if (p[j] > max) max = p[j];
            }
            for (int j = 0; j < n; j++) {
                p[j] = expf(p[j] - max);
                sum += p[j];
            }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j < n; j++) {
                    int blk = table[j / block_size], row = j % block_size;
                    acc += p[j] * v_cache[((blk * block_size + row) * Hkv + g) * D + c];
                }
                out[(b * H + h) * D + c] = acc / sum;
            }
        }
    }
    free(p);
}
