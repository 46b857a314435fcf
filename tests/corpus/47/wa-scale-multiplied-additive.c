/* expect: WA scale_multiplied */
/* An additive causal/padding mask over a full score matrix; the scores are multiplied by sqrtf(D) where they should be divided. */
#include <math.h>
#include <stdlib.h>

void sdpa(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    float *P = malloc(sizeof(float) * T * S);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *Q = q + (b * H + h) * T * D, *K = k + (b * H + h) * S * D;
            const float *V = v + (b * H + h) * S * D;
            float *O = out + (b * H + h) * T * D;
            for (int i = 0; i < T; i++)
                for (int j = 0; j < S; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += Q[i * D + c] * K[j * D + c];
                    float add = 0.0f;
                    if (causal && j > i + (S - T)) add = -INFINITY;   /* tril(diagonal = S - T) */
                    if (mask && mask[b * S + j] == 0) add = -INFINITY;
                    P[i * S + j] = s * sqrtf((float)D) + add;
                }
            for (int i = 0; i < T; i++) {
                float m = -INFINITY, z = 0.0f;
                for (int j = 0; j < S; j++) m = fmaxf(m, P[i * S + j]);
                for (int j = 0; j < S; j++) {
                    P[i * S + j] = m == -INFINITY ? 0.0f : expf(P[i * S + j] - m);
                    z += P[i * S + j];
                }
                for (int j = 0; j < S; j++) P[i * S + j] = z > 0.0f ? P[i * S + j] / z : 0.0f;
            }
            for (int i = 0; i < T; i++)
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j < S; j++) acc += P[i * S + j] * V[j * D + c];
                    O[i * D + c] = acc;
                }
        }
    free(P);
}
