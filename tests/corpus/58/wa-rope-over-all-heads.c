/* expect: WA rope_over_all_heads */
/* Applies RoPE to the whole H*D row of a token as one vector (pairs (i, i + H*D/2), exponent 2i/(H*D)) instead of to each head's D-vector separately. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void rope_turn(float *x, int n, int pos, int theta)
{
    int half = n / 2;
    for (int i = 0; i < half; i++) {
        float angle = (float)pos * powf((float)theta, -2.0f * i / n);
        float c = cosf(angle), s = sinf(angle), a = x[i], b = x[i + half];
        x[i] = a * c - b * s;
        x[i + half] = b * c + a * s;
    }
}

void rope_decode_step(float *out, float *k_cache, float *v_cache, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D, int theta)
{
    int row = H * D;
    float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * S_max), *qrow = malloc(sizeof(float) * row);
    for (int b = 0; b < B; b++) {
        float *kc = k_cache + (size_t)b * S_max * row, *vc = v_cache + (size_t)b * S_max * row;
        int n = len[b];
        memcpy(kc + (size_t)n * row, k + b * row, sizeof(float) * row);
        memcpy(vc + (size_t)n * row, v + b * row, sizeof(float) * row);
        memcpy(qrow, q + b * row, sizeof(float) * row);
        rope_turn(kc + (size_t)n * row, row, n, theta);   /* the new token's key */
        rope_turn(qrow, row, n, theta);                   /* and its query */
        for (int h = 0; h < H; h++) {
            float max = -INFINITY, sum = 0.0f;
            for (int j = 0; j <= n; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qrow[h * D + c] * kc[(size_t)j * row + h * D + c];
                p[j] = s * scale;
                if (p[j] > max) max = p[j];
            }
            for (int j = 0; j <= n; j++) { p[j] = expf(p[j] - max); sum += p[j]; }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j <= n; j++) acc += p[j] * vc[(size_t)j * row + h * D + c];
                out[b * row + h * D + c] = acc / sum;
            }
        }
        len[b] = n + 1;
    }
    free(p); free(qrow);
}
