/* expect: WA causal_flag_ignored */
/* The causal mask applied whatever the flag says. */
/* correct: running max and sum in one pass (rescaled), then the weights */
#include <math.h>
#include <float.h>
#include <stddef.h>
void attn_weights(float *probs, float *sink, const float *q, const float *k,
                  int B, int H, int T, int S, int D, int causal)
{
    const float sc = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; ++bh) {
        const float *Q = q + (size_t)bh * T * D, *K = k + (size_t)bh * S * D;
        float *P = probs + (size_t)bh * T * S;
        for (int i = 0; i < T; ++i, Q += D, P += S) {
            int n = i + S - T + 1;
            float m = -FLT_MAX, l = 0.0f;
            for (int j = 0; j < n; ++j) {
                float s = 0.0f;
                for (int c = 0; c < D; ++c) s += Q[c] * K[j * D + c];
                s *= sc;
                P[j] = s;
                if (s > m) { l = l * expf(m - s) + 1.0f; m = s; }
                else l += expf(s - m);
            }
            for (int j = 0; j < S; ++j) P[j] = j < n ? expf(P[j] - m) / l : 0.0f;
            sink[bh * T + i] = P[0];
        }
    }
}
