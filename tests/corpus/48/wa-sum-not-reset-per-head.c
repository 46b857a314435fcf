/* expect: WA sum_not_reset */
/* Per head: the max is reset for each query, the denominator only once per head. */
#include <math.h>
#include <stddef.h>

void attn_weights(float *probs, float *sink, const float *q, const float *k,
                  int B, int H, int T, int S, int D, int causal)
{
    const float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *Q = q + (size_t)(b * H + h) * T * D;
            const float *K = k + (size_t)(b * H + h) * S * D;
            float *P = probs + (size_t)(b * H + h) * T * S;
            float denom = 0.0f;
            for (int i = 0; i < T; i++) {
                float mx = -INFINITY;
                int last = causal ? i + (S - T) : S - 1;
                for (int j = 0; j < S; j++) {
                    if (j > last) { P[i * S + j] = 0.0f; continue; }
                    float dot = 0.0f;
                    for (int c = 0; c < D; c++) dot += Q[i * D + c] * K[j * D + c];
                    P[i * S + j] = dot * scale;
                    mx = fmaxf(mx, P[i * S + j]);
                }
                for (int j = 0; j <= last; j++) {
                    P[i * S + j] = expf(P[i * S + j] - mx);
                    denom += P[i * S + j];
                }
                for (int j = 0; j <= last; j++) P[i * S + j] /= denom;
                sink[(b * H + h) * T + i] = P[i * S];
            }
        }
}
