/* expect: WA query_batch_offset_missing */
/* Walks the table block by block with an online softmax; the query pointer
 * is taken at head h alone, without the sequence's offset. */
#include <math.h>

void paged_decode(float *out, const float *q, const float *k_cache, const float *v_cache,
                  const int *block_table, const int *seq_lens,
                  int B, int H, int Hkv, int D, int num_blocks, int block_size, int max_blocks)
{
    (void)num_blocks;
    const int row_stride = Hkv * D, group = H / Hkv;
    const float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++) {
        const int *tab = block_table + b * max_blocks;
        const int n = seq_lens[b], nblocks = (n + block_size - 1) / block_size;
        for (int h = 0; h < H; h++) {
            const float *qh = q + h * D;
            const int off = (h / group) * D;
            float acc[D], m = -INFINITY, l = 0.0f;
            for (int c = 0; c < D; c++) acc[c] = 0.0f;
            for (int i = 0; i < nblocks; i++) {
                const float *kb = k_cache + (long)tab[i] * block_size * row_stride + off;
                const float *vb = v_cache + (long)tab[i] * block_size * row_stride + off;
                int rows = n - i * block_size < block_size ? n - i * block_size : block_size;
                for (int r = 0; r < rows; r++, kb += row_stride, vb += row_stride) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qh[c] * kb[c];
                    s *= scale;
                    float m2 = s > m ? s : m, corr = expf(m - m2), e = expf(s - m2);
                    l = l * corr + e;
                    for (int c = 0; c < D; c++) acc[c] = acc[c] * corr + e * vb[c];
                    m = m2;
                }
            }
            for (int c = 0; c < D; c++) out[(b * H + h) * D + c] = acc[c] / l;
        }
    }
}
