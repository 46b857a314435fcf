/* expect: WA causal_applied */
/* Keeps the decoder's causal mask: query i only sees encoder keys j <= i. */
#include <math.h>
#include <stdlib.h>

void cross_attention(float *out, const float *q, const float *k, const float *v,
                     const unsigned char *enc_mask, int B, int H, int T, int S, int D)
{
    float *w = malloc(sizeof(float) * S);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < T; i++) {
                const float *qi = q + ((b * H + h) * T + i) * D;
                float max = -INFINITY, sum = 0.0f;
                int any = 0;
                for (int j = 0; j < S; j++) {
                    int ok = j <= i && (!enc_mask || enc_mask[b * S + j]);
                    w[j] = -INFINITY;
                    if (!ok) continue;
                    any = 1;
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qi[c] * k[((b * H + h) * S + j) * D + c];
                    w[j] = s / sqrtf((float)D);
                    if (w[j] > max) max = w[j];
                }
                for (int j = 0; j < S; j++) {
                    w[j] = w[j] == -INFINITY ? 0.0f : expf(w[j] - max);
                    sum += w[j];
                }
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j < S; j++) acc += w[j] * v[((b * H + h) * S + j) * D + c];
                    out[((b * H + h) * T + i) * D + c] = any ? acc / sum : 0.0f;
                }
            }
    free(w);
}
