/* expect: WA mask_inverted */
/* enc_mask read as PyTorch's key_padding_mask: a key is skipped where the mask is 1. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void cross_attention(float *out, const float *q, const float *k, const float *v,
                     const unsigned char *enc_mask, int B, int H, int T, int S, int D)
{
    float scale = 1.0f / sqrtf((float)D);
    float *sc = malloc(sizeof(float) * (S + 1));
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *K = k + (size_t)(b * H + h) * S * D;
            const float *V = v + (size_t)(b * H + h) * S * D;
            for (int i = 0; i < T; i++) {
                const float *qi = q + ((size_t)(b * H + h) * T + i) * D;
                float *o = out + ((size_t)(b * H + h) * T + i) * D;
                float mx = -INFINITY;
                for (int j = 0; j < S; j++) {
                    if (enc_mask && enc_mask[b * S + j]) continue;
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qi[c] * K[j * D + c];
                    sc[j] = s * scale;
                    if (sc[j] > mx) mx = sc[j];
                }
                for (int c = 0; c < D; c++) o[c] = 0.0f;
                if (mx == -INFINITY) continue;
                float sum = 0.0f;
                for (int j = 0; j < S; j++) {
                    if (enc_mask && enc_mask[b * S + j]) continue;
                    float w = expf(sc[j] - mx);
                    sum += w;
                    for (int c = 0; c < D; c++) o[c] += w * V[j * D + c];
                }
                for (int c = 0; c < D; c++) o[c] /= sum;
            }
        }
    free(sc);
}
