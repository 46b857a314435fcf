/* expect: WA mask_fill_finite */
/* masked_fill as in PyTorch tutorials: a padded key's score becomes -1e9, then a plain softmax. With every encoder token padded, all scores tie and the values are averaged. */
#include <math.h>
#include <stdlib.h>

static void softmax_inplace(float *x, int n)
{
    float m = x[0], z = 0.0f;
    for (int j = 1; j < n; j++) m = x[j] > m ? x[j] : m;
    for (int j = 0; j < n; j++) z += x[j] = expf(x[j] - m);
    for (int j = 0; j < n; j++) x[j] /= z;
}

void cross_attention(float *out, const float *q, const float *k, const float *v,
                     const unsigned char *enc_mask, int B, int H, int T, int S, int D)
{
    float *w = malloc(sizeof(float) * S);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *Q = q + (size_t)(b * H + h) * T * D, *K = k + (size_t)(b * H + h) * S * D;
            const float *V = v + (size_t)(b * H + h) * S * D;
            for (int i = 0; i < T; i++) {
                for (int j = 0; j < S; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += Q[i * D + c] * K[j * D + c];
                    w[j] = enc_mask && !enc_mask[b * S + j] ? -1e9f : s / sqrtf((float)D);
                }
                softmax_inplace(w, S);
                for (int c = 0; c < D; c++) {
                    float o = 0.0f;
                    for (int j = 0; j < S; j++) o += w[j] * V[j * D + c];
                    out[(size_t)(b * H + h) * T * D + i * D + c] = o;
                }
            }
        }
    free(w);
}
