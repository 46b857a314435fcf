/* expect: WA not_normalized */
/* Block by block with an online softmax, the running sum kept and never divided by. */
#include <math.h>

void paged_decode(float *out, const float *q, const float *k_cache, const float *v_cache,
                  const int *block_table, const int *seq_lens,
                  int B, int H, int Hkv, int D, int num_blocks, int block_size, int max_blocks)
{
    (void)num_blocks;
    const float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++) {
        int n = seq_lens[b];
        int nblocks = (n + block_size - 1) / block_size;
        for (int h = 0; h < H; h++) {
            int g = h / (H / Hkv);
            const float *qh = q + (b * H + h) * D;
            float *o = out + (b * H + h) * D;
            float m = -INFINITY, l = 0.0f;
            for (int c = 0; c < D; c++) o[c] = 0.0f;
            for (int blk = 0; blk < nblocks; blk++) {
                int phys = block_table[b * max_blocks + blk];
                int rows = blk == nblocks - 1 ? n - blk * block_size : block_size;
                for (int r = 0; r < rows; r++) {
                    const float *kr = k_cache + ((phys * block_size + r) * Hkv + g) * D;
                    const float *vr = v_cache + ((phys * block_size + r) * Hkv + g) * D;
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qh[c] * kr[c];
                    s *= scale;
                    float m2 = s > m ? s : m, a = expf(m - m2), e = expf(s - m2);
                    l = l * a + e;
                    for (int c = 0; c < D; c++) o[c] = o[c] * a + e * vr[c];
                    m = m2;
                }
            }
            (void)l;   /* the weights are used as they are */
        }
    }
}
