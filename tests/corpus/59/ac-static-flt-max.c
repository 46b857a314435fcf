/* expect: AC */
/* Static score buffer sized for the limits (256 keys), -FLT_MAX as the start of the max, a KV() index macro, the softmax normalised before the weighted sum. */
#include <float.h>
#include <math.h>

#define KV(cache, blk, row, g, c) cache[(((blk) * block_size + (row)) * Hkv + (g)) * D + (c)]

static float w[256];

void paged_decode(float *out, const float *q, const float *k_cache, const float *v_cache,
                  const int *block_table, const int *seq_lens,
                  int B, int H, int Hkv, int D, int num_blocks, int block_size, int max_blocks)
{
    (void)num_blocks;
    for (int b = 0; b < B; b++) {
        for (int h = 0; h < H; h++) {
            int g = h * Hkv / H;
            float best = -FLT_MAX, total = 0.0f;
            for (int p = 0; p < seq_lens[b]; p++) {
                int blk = block_table[b * max_blocks + p / block_size];
                float d = 0.0f;
                for (int c = 0; c < D; c++) d += q[(b * H + h) * D + c] * KV(k_cache, blk, p % block_size, g, c);
                w[p] = d * (1.0f / sqrtf((float)D));
                best = fmaxf(best, w[p]);
            }
            for (int p = 0; p < seq_lens[b]; p++) total += (w[p] = expf(w[p] - best));
            for (int p = 0; p < seq_lens[b]; p++) w[p] /= total;
            for (int c = 0; c < D; c++) {
                float o = 0.0f;
                for (int p = 0; p < seq_lens[b]; p++)
                    o += w[p] * KV(v_cache, block_table[b * max_blocks + p / block_size], p % block_size, g, c);
                out[(b * H + h) * D + c] = o;
            }
        }
    }
}
