/* expect: WA sum_not_reset */
/* Two passes per head over the gathered rows; the softmax denominator is a
 * variable of the sequence, zeroed before its heads, so each head's sum
 * starts from the last head's. */
#include <math.h>
#include <stdlib.h>

static const float *row_of(const float *cache, const int *tab, int p, int bs, int Hkv, int D, int g)
{
    return cache + ((size_t)tab[p / bs] * bs + p % bs) * Hkv * D + (size_t)g * D;
}

void paged_decode(float *out, const float *q, const float *k_cache, const float *v_cache,
                  const int *block_table, const int *seq_lens,
                  int B, int H, int Hkv, int D, int num_blocks, int block_size, int max_blocks)
{
    (void)num_blocks;
    const float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++) {
        const int *tab = block_table + (size_t)b * max_blocks;
        int n = seq_lens[b];
        float *w = malloc(sizeof(float) * (n > 0 ? n : 1));
        float denom = 0.0f;
        for (int h = 0; h < H; h++) {
            int g = h / (H / Hkv);
            const float *qh = q + ((size_t)b * H + h) * D;
            float mx = -INFINITY;
            for (int p = 0; p < n; p++) {
                const float *kr = row_of(k_cache, tab, p, block_size, Hkv, D, g);
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qh[c] * kr[c];
                w[p] = s * scale;
                if (w[p] > mx) mx = w[p];
            }
            for (int p = 0; p < n; p++) {
                w[p] = expf(w[p] - mx);
                denom += w[p];
            }
            float *o = out + ((size_t)b * H + h) * D;
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int p = 0; p < n; p++) acc += w[p] * row_of(v_cache, tab, p, block_size, Hkv, D, g)[c];
                o[c] = acc / denom;
            }
        }
        free(w);
    }
}
