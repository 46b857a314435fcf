/* expect: WA max_starts_at_zero */
/* Block by block with an online softmax whose max starts at 0, not -INFINITY. */
#include <math.h>
#include <stdlib.h>
/* block by block, online softmax */
void paged_decode(float *out, const float *q, const float *k_cache, const float *v_cache,
                  const int *block_table, const int *seq_lens,
                  int B, int H, int Hkv, int D, int num_blocks, int block_size, int max_blocks)
{
    (void)num_blocks;
    float *acc = malloc(sizeof(float) * D);
    for (int b = 0; b < B; b++) {
        int n = seq_lens[b];
        int nblk = (n + block_size - 1) / block_size;
        for (int h = 0; h < H; h++) {
            int g = h / (H / Hkv);
            const float *qh = q + (b * H + h) * D;
            float m = 0.0f, l = 0.0f;
            for (int c = 0; c < D; c++) acc[c] = 0.0f;
            for (int lb = 0; lb < nblk; lb++) {
                int phys = block_table[b * max_blocks + lb];
                int rows = n - lb * block_size < block_size ? n - lb * block_size : block_size;
                for (int r = 0; r < rows; r++) {
                    const float *kr = k_cache + ((size_t)(phys * block_size + r) * Hkv + g) * D;
                    const float *vr = v_cache + ((size_t)(phys * block_size + r) * Hkv + g) * D;
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qh[c] * kr[c];
                    s = s / sqrtf((float)D);
                    float mn = fmaxf(m, s);
                    float corr = expf(m - mn), p = expf(s - mn);
                    l = l * corr + p;
                    for (int c = 0; c < D; c++) acc[c] = acc[c] * corr + p * vr[c];
                    m = mn;
                }
            }
            for (int c = 0; c < D; c++) out[(b * H + h) * D + c] = acc[c] / l;
        }
    }
    free(acc);
}
