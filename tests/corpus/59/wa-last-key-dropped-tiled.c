/* expect: WA last_key_dropped */
/* only seq_len - 1 keys read -- `int ctx = seq_lens[b] - 1;` (treating seq_len as "cached tokens + the query") drives the block count ceil(ctx / block_size) and the last block's rows, so the newest key is dropped; block-tiled online softmax, fixed stack arrays, -INFINITY start, guard: no keys -> zeros */
#include <math.h>
#include <stdlib.h>

#define MAX_BS 64
#define MAX_D 256

void paged_decode(float *out, const float *q, const float *k_cache, const float *v_cache,
                  const int *block_table, const int *seq_lens,
                  int B, int H, int Hkv, int D, int num_blocks, int block_size, int max_blocks)
{
    (void)num_blocks;
    const float scale = 1.0f / sqrtf((float)D);
    float s[MAX_BS];
    float acc[MAX_D];
    for (int b = 0; b < B; b++) {
        int ctx = seq_lens[b] - 1;
        int nblk = (ctx + block_size - 1) / block_size;
        for (int h = 0; h < H; h++) {
            int kh = h / (H / Hkv);
            const float *qh = q + (b * H + h) * D;
            float m = -INFINITY, l = 0.0f;
            for (int c = 0; c < D; c++) acc[c] = 0.0f;
            for (int i = 0; i < nblk; i++) {
                int blk = block_table[b * max_blocks + i];
                int rows = ctx - i * block_size;
                if (rows > block_size) rows = block_size;
                float bm = -INFINITY;
                for (int r = 0; r < rows; r++) {
                    const float *kr = k_cache + ((blk * block_size + r) * Hkv + kh) * D;
                    float d = 0.0f;
                    for (int c = 0; c < D; c++) d += qh[c] * kr[c];
                    s[r] = d * scale;
                    bm = fmaxf(bm, s[r]);
                }
                float nm = fmaxf(m, bm);
                float f = expf(m - nm);
                l *= f;
                for (int c = 0; c < D; c++) acc[c] *= f;
                for (int r = 0; r < rows; r++) {
                    const float *vr = v_cache + ((blk * block_size + r) * Hkv + kh) * D;
                    float e = expf(s[r] - nm);
                    l += e;
                    for (int c = 0; c < D; c++) acc[c] += e * vr[c];
                }
                m = nm;
            }
            for (int c = 0; c < D; c++)
                out[(b * H + h) * D + c] = nblk > 0 ? acc[c] / l : 0.0f;
        }
    }
}
