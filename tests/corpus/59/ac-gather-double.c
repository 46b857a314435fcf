/* expect: AC */
/* Gathers each sequence's keys and values into contiguous malloc'd buffers first, then plain attention in double per kv head and its group of query heads. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void attend(float *o, const float *qh, const float *k, const float *v, int n, int ld, int D)
{
    double *w = malloc(sizeof(double) * n), m = -INFINITY, z = 0.0;
    for (int j = 0; j < n; j++) {
        double d = 0.0;
        for (int c = 0; c < D; c++) d += (double)qh[c] * k[j * ld + c];
        w[j] = d / sqrt((double)D);
        if (w[j] > m) m = w[j];
    }
    for (int j = 0; j < n; j++) z += (w[j] = exp(w[j] - m));
    for (int c = 0; c < D; c++) {
        double a = 0.0;
        for (int j = 0; j < n; j++) a += w[j] * v[j * ld + c];
        o[c] = (float)(a / z);
    }
    free(w);
}

void paged_decode(float *out, const float *q, const float *k_cache, const float *v_cache,
                  const int *block_table, const int *seq_lens,
                  int B, int H, int Hkv, int D, int num_blocks, int block_size, int max_blocks)
{
    (void)num_blocks;
    size_t row = (size_t)Hkv * D, cap = (size_t)max_blocks * block_size;
    float *k = malloc(sizeof(float) * cap * row), *v = malloc(sizeof(float) * cap * row);
    for (int b = 0; b < B; b++) {
        int n = seq_lens[b];
        for (int p = 0; p < n; p++) {
            size_t src = ((size_t)block_table[b * max_blocks + p / block_size] * block_size + p % block_size) * row;
            memcpy(k + p * row, k_cache + src, sizeof(float) * row);
            memcpy(v + p * row, v_cache + src, sizeof(float) * row);
        }
        for (int g = 0; g < Hkv; g++)
            for (int h = g * (H / Hkv); h < (g + 1) * (H / Hkv); h++)
                attend(out + ((size_t)b * H + h) * D, q + ((size_t)b * H + h) * D, k + g * D, v + g * D, n,
                       (int)row, D);
    }
    free(k);
    free(v);
}
