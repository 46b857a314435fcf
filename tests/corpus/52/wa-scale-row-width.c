/* expect: WA scale_sqrt_hd */
/* The scores are divided by sqrt(H*D), the width of a whole cached row,
 * instead of sqrt(D), the width of one head; the rest is a correct decode step. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#define CACHE_AT(b, pos, h, c) ((((size_t)(b) * S_max + (pos)) * H + (h)) * D + (c))
#define TOK_AT(b, h, c)        (((size_t)(b) * H + (h)) * D + (c))

void decode_step(float *out, float *k_cache, float *v_cache, int *len,
                 const float *q, const float *k, const float *v,
                 int B, int S_max, int H, int D)
{
    /* one row of the cache is H*D wide, so normalise by that */
    const float inv_norm = 1.0f / sqrtf((float)(H * D));
    float w[65 + 1];   /* S_max <= 65 in every case */
    float *weights = S_max <= 65 ? w : malloc(sizeof(float) * (size_t)S_max);

    for (int b = 0; b < B; ++b) {
        const int n = len[b];

        /* append first, so the new token is just the last cached row */
        for (int h = 0; h < H; ++h)
            for (int c = 0; c < D; ++c) {
                k_cache[CACHE_AT(b, n, h, c)] = k[TOK_AT(b, h, c)];
                v_cache[CACHE_AT(b, n, h, c)] = v[TOK_AT(b, h, c)];
            }

        for (int h = 0; h < H; ++h) {
            float top = -INFINITY;
            for (int j = 0; j <= n; ++j) {
                float dot = 0.0f;
                for (int c = 0; c < D; ++c)
                    dot += q[TOK_AT(b, h, c)] * k_cache[CACHE_AT(b, j, h, c)];
                weights[j] = dot * inv_norm;
                top = fmaxf(top, weights[j]);
            }
            float z = 0.0f;
            for (int j = 0; j <= n; ++j) {
                weights[j] = expf(weights[j] - top);
                z += weights[j];
            }
            const float rz = 1.0f / z;
            for (int c = 0; c < D; ++c) {
                float acc = 0.0f;
                for (int j = 0; j <= n; ++j)
                    acc += weights[j] * v_cache[CACHE_AT(b, j, h, c)];
                out[TOK_AT(b, h, c)] = acc * rz;
            }
        }
        len[b] = n + 1;
    }
    if (weights != w) free(weights);
}
