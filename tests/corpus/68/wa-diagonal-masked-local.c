/* expect: WA diagonal_masked */
/* Loops over sequences with local positions; every key loop runs j < i, so a token never sees its own key (a sequence's first token keeps the zeros it was given). */
#include <math.h>
#include <stdlib.h>

void varlen_attention(float *out, const float *q, const float *k, const float *v,
                      const int *cu_seqlens, int B, int total, int H, int D)
{
    float *w = malloc(sizeof(float) * (size_t)total);
    float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++) {
        int s0 = cu_seqlens[b], L = cu_seqlens[b + 1] - s0;
        for (int h = 0; h < H; h++)
            for (int i = 0; i < L; i++) {
                const float *qi = q + ((size_t)(s0 + i) * H + h) * D;
                float m = -INFINITY, z = 0.0f;
                for (int j = 0; j < i; j++) {
                    const float *kj = k + ((size_t)(s0 + j) * H + h) * D;
                    float d = 0.0f;
                    for (int c = 0; c < D; c++) d += qi[c] * kj[c];
                    w[j] = d * scale;
                    m = w[j] > m ? w[j] : m;
                }
                for (int j = 0; j < i; j++) z += (w[j] = expf(w[j] - m));
                float *o = out + ((size_t)(s0 + i) * H + h) * D;
                for (int c = 0; c < D; c++) o[c] = 0.0f;
                for (int j = 0; j < i; j++) {
                    const float *vj = v + ((size_t)(s0 + j) * H + h) * D;
                    for (int c = 0; c < D; c++) o[c] += w[j] / z * vj[c];
                }
            }
    }
    free(w);
}
