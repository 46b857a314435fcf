/* expect: WA max_over_hidden_keys */
/* GQA: all S scores first, their max, then the causal mask as the exps are taken. */
#include <math.h>
#include <stdlib.h>

void gqa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int Hkv, int T, int S, int D, int causal)
{
    float *sc = malloc(sizeof(float) * (size_t)S);
    int rep = H / Hkv;
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *qh = q + ((size_t)b * H + h) * T * D;
            const float *kh = k + ((size_t)b * Hkv + h / rep) * S * D;
            const float *vh = v + ((size_t)b * Hkv + h / rep) * S * D;
            for (int t = 0; t < T; t++) {
                float hi = -INFINITY;
                for (int s = 0; s < S; s++) {
                    float a = 0.0f;
                    for (int c = 0; c < D; c++) a += qh[t * D + c] * kh[s * D + c];
                    sc[s] = a / sqrtf((float)D);
                    if (sc[s] > hi) hi = sc[s];
                }
                float z = 0.0f;
                for (int s = 0; s < S; s++) {
                    sc[s] = causal && s > t + S - T ? 0.0f : expf(sc[s] - hi);
                    z += sc[s];
                }
                for (int c = 0; c < D; c++) {
                    float y = 0.0f;
                    for (int s = 0; s < S; s++) y += sc[s] * vh[s * D + c];
                    out[((size_t)b * H + h) * T * D + t * D + c] = y / z;
                }
            }
        }
    free(sc);
}
