/* expect: WA causal_offset_negated */
/* Masked scores filled with -1e9f as in many PyTorch examples, the future taken as j > i - (S - T): the offset's sign flipped. A row that sees nothing comes out as the mean of the values. */
#include <math.h>
#include <stdlib.h>

void gqa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int Hkv, int T, int S, int D, int causal)
{
    float *att = malloc(sizeof(float) * (size_t)T * S);
    int rep = H / Hkv;
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *Q = q + (size_t)(b * H + h) * T * D;
            const float *K = k + (size_t)(b * Hkv + h / rep) * S * D;
            const float *V = v + (size_t)(b * Hkv + h / rep) * S * D;
            float *O = out + (size_t)(b * H + h) * T * D;
            for (int i = 0; i < T; i++)
                for (int j = 0; j < S; j++) {
                    float d = 0.0f;
                    for (int c = 0; c < D; c++) d += Q[i * D + c] * K[j * D + c];
                    att[i * S + j] = d / sqrtf((float)D);
                    if (causal && j > i - (S - T)) att[i * S + j] = -1e9f;
                }
            for (int i = 0; i < T; i++) {
                float mx = att[i * S];
                for (int j = 1; j < S; j++) mx = fmaxf(mx, att[i * S + j]);
                float z = 0.0f;
                for (int j = 0; j < S; j++) {
                    att[i * S + j] = expf(att[i * S + j] - mx);
                    z += att[i * S + j];
                }
                for (int c = 0; c < D; c++) {
                    float o = 0.0f;
                    for (int j = 0; j < S; j++) o += att[i * S + j] * V[j * D + c];
                    O[i * D + c] = o / z;
                }
            }
        }
    free(att);
}
