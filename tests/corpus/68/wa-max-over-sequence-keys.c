/* expect: WA max_over_hidden_keys */
/* The softmax max is taken over every key of the token's sequence, its future keys too, while the sum and the values cover only the keys up to the token. */
#include <math.h>
#include <stdlib.h>

void varlen_attention(float *out, const float *q, const float *k, const float *v,
                      const int *cu_seqlens, int B, int total, int H, int D)
{
    float scale = 1.0f / sqrtf((float)D);
    float *sc = malloc(sizeof(float) * (total > 0 ? total : 1));
    float *acc = malloc(sizeof(float) * (D > 0 ? D : 1));
    for (int b = 0; b < B; b++) {
        int first = cu_seqlens[b], last = cu_seqlens[b + 1] - 1;
        for (int t = first; t <= last; t++)
            for (int h = 0; h < H; h++) {
                const float *qrow = q + ((size_t)t * H + h) * D;
                /* score the whole sequence at once, and find its peak */
                float peak = -INFINITY;
                for (int j = first; j <= last; j++) {
                    const float *krow = k + ((size_t)j * H + h) * D;
                    float d = 0.0f;
                    for (int c = D - 1; c >= 0; c--) d += qrow[c] * krow[c];
                    sc[j - first] = d * scale;
                    if (sc[j - first] > peak) peak = sc[j - first];
                }
                float den = 0.0f;
                for (int c = 0; c < D; c++) acc[c] = 0.0f;
                for (int j = first; j <= t; j++) {
                    float p = expf(sc[j - first] - peak);
                    const float *vrow = v + ((size_t)j * H + h) * D;
                    den += p;
                    for (int c = 0; c < D; c++) acc[c] += p * vrow[c];
                }
                float *orow = out + ((size_t)t * H + h) * D;
                for (int c = 0; c < D; c++) orow[c] = acc[c] / den;
            }
    }
    free(sc);
    free(acc);
}
