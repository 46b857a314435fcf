/* expect: WA cache_layout_hnd */
/* Online softmax with an offset helper written for the HND layout, kv head before row. */
#include <math.h>

/* Offset of (block, row, kv head) in the cache. */
static long at(int blk, int row, int g, int block_size, int Hkv, int D)
{
    return (((long)blk * Hkv + g) * block_size + row) * D;
}

void paged_decode(float *out, const float *q, const float *k_cache, const float *v_cache,
                  const int *block_table, const int *seq_lens,
                  int B, int H, int Hkv, int D, int num_blocks, int block_size, int max_blocks)
{
    (void)num_blocks;
    for (int b = 0; b < B; b++) {
        const int *tab = block_table + b * max_blocks;
        int n = seq_lens[b];
        for (int h = 0; h < H; h++) {
            const float *qh = q + (b * H + h) * D;
            int g = h / (H / Hkv);
            float acc[D], m = -INFINITY, l = 0.0f;
            for (int c = 0; c < D; c++) acc[c] = 0.0f;
            for (int p = 0; p < n; p++) {
                long o = at(tab[p / block_size], p % block_size, g, block_size, Hkv, D);
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qh[c] * k_cache[o + c];
                s *= 1.0f / sqrtf((float)D);
                float m2 = s > m ? s : m, corr = expf(m - m2), e = expf(s - m2);
                l = l * corr + e;
                for (int c = 0; c < D; c++) acc[c] = acc[c] * corr + e * v_cache[o + c];
                m = m2;
            }
            for (int c = 0; c < D; c++) out[(b * H + h) * D + c] = acc[c] / l;
        }
    }
}
