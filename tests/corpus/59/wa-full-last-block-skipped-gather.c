/* expect: WA full_last_block_skipped */
/* last block's row count taken as seq_len % block_size -- `int tail = len % block_size;` and each block copies `take = (blk_i == nblocks - 1) ? tail : block_size` rows into a gathered contiguous VLA cache (a full last block copies nothing); then a two-pass softmax over the gathered rows per query head, no empty guard */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void paged_decode(float *out, const float *q, const float *k_cache, const float *v_cache,
                  const int *block_table, const int *seq_lens,
                  int B, int H, int Hkv, int D, int num_blocks, int block_size, int max_blocks)
{
    (void)num_blocks;
    const int cap = max_blocks * block_size;
    const int RW = Hkv * D;        /* floats per cache row */
    float *Kc = malloc(sizeof(float) * cap * RW);
    float *Vc = malloc(sizeof(float) * cap * RW);
    float w[cap];
    float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++) {
        int len = seq_lens[b];
        int nblocks = (len + block_size - 1) / block_size;
        int tail = len % block_size;
        int got = 0;
        for (int blk_i = 0; blk_i < nblocks; blk_i++) {
            int phys = block_table[b * max_blocks + blk_i];
            int take = (blk_i == nblocks - 1) ? tail : block_size;
            memcpy(Kc + got * RW, k_cache + (size_t)phys * block_size * RW, sizeof(float) * take * RW);
            memcpy(Vc + got * RW, v_cache + (size_t)phys * block_size * RW, sizeof(float) * take * RW);
            got += take;
        }
        for (int h = 0; h < H; h++) {
            int g = h / (H / Hkv);
            const float *qh = q + (b * H + h) * D;
            float mx = -INFINITY;
            for (int t = 0; t < got; t++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qh[c] * Kc[t * RW + g * D + c];
                w[t] = s * scale;
                if (w[t] > mx) mx = w[t];
            }
            float z = 0.0f;
            for (int t = 0; t < got; t++) { w[t] = expf(w[t] - mx); z += w[t]; }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int t = 0; t < got; t++) acc += w[t] * Vc[t * RW + g * D + c];
                out[(b * H + h) * D + c] = acc / z;
            }
        }
    }
    free(Kc);
    free(Vc);
}
