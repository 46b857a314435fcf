/* expect: WA wrong_axis */
/* Normalises over the queries (each column of the score matrix, dim = -2). */
#include <math.h>
#include <stdlib.h>

void attn_weights(float *probs, float *sink, const float *q, const float *k,
                  int B, int H, int T, int S, int D, int causal)
{
    for (int bh = 0; bh < B * H; bh++) {
        float *p = probs + bh * T * S;
        for (int i = 0; i < T; i++)
            for (int j = 0; j < S; j++) {
                float dot = 0.0f;
                for (int c = 0; c < D; c++) dot += q[(bh * T + i) * D + c] * k[(bh * S + j) * D + c];
                p[i * S + j] = causal && j > i + S - T ? -INFINITY : dot / sqrtf((float)D);
            }
        for (int j = 0; j < S; j++) {
            float m = -INFINITY, z = 0.0f;
            for (int i = 0; i < T; i++) m = fmaxf(m, p[i * S + j]);
            for (int i = 0; i < T; i++) {
                p[i * S + j] = m == -INFINITY ? 0.0f : expf(p[i * S + j] - m);
                z += p[i * S + j];
            }
            for (int i = 0; i < T; i++) if (z > 0.0f) p[i * S + j] /= z;
        }
        for (int i = 0; i < T; i++) sink[bh * T + i] = p[i * S];
    }
}
