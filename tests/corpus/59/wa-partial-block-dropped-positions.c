/* expect: WA partial_block_dropped */
/* number of blocks rounded down -- `int full = seq_lens[b] / block_size;` and the key loop runs p < full * block_size, so the keys of a partial last block are skipped; online softmax key by key in double, with a defensive l == 0 guard that writes zeros; loops h outer over a flattened (b, h) index */
#include <math.h>
#include <stdlib.h>

void paged_decode(float *out, const float *q, const float *k_cache, const float *v_cache,
                  const int *block_table, const int *seq_lens,
                  int B, int H, int Hkv, int D, int num_blocks, int block_size, int max_blocks)
{
    (void)num_blocks;
    double *acc = malloc(sizeof(double) * D);
    double scale = 1.0 / sqrt((double)D);
    int per_kv = H / Hkv;
    for (int bh = 0; bh < B * H; bh++) {
        int b = bh / H, h = bh % H, g = h / per_kv;
        int full = seq_lens[b] / block_size;
        int nkeys = full * block_size;
        const float *qv = q + (size_t)bh * D;
        double m = -INFINITY, l = 0.0;
        for (int c = 0; c < D; c++) acc[c] = 0.0;
        for (int p = 0; p < nkeys; p++) {
            int blk = block_table[b * max_blocks + p / block_size];
            size_t off = ((size_t)blk * block_size + p % block_size) * Hkv * D + (size_t)g * D;
            double s = 0.0;
            for (int c = 0; c < D; c++) s += (double)qv[c] * k_cache[off + c];
            s *= scale;
            double mn = s > m ? s : m;
            double r = exp(m - mn), e = exp(s - mn);
            l = l * r + e;
            for (int c = 0; c < D; c++) acc[c] = acc[c] * r + e * v_cache[off + c];
            m = mn;
        }
        for (int c = 0; c < D; c++)
            out[(size_t)bh * D + c] = l == 0.0 ? 0.0f : (float)(acc[c] / l);
    }
    free(acc);
}
