/* expect: WA mask_after_softmax */
/* Softmax over every key, then zeroes the future: the visible weights no
 * longer sum to 1. */
#include <math.h>

void attn_weights(float *probs, float *sink, const float *q, const float *k,
                  int B, int H, int T, int S, int D, int causal)
{
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < T; i++) {
            float *p = probs + (bh * T + i) * S, m = -INFINITY, z = 0.0f;
            for (int j = 0; j < S; j++) {
                float dot = 0.0f;
                for (int c = 0; c < D; c++) dot += q[(bh * T + i) * D + c] * k[(bh * S + j) * D + c];
                p[j] = dot / sqrtf((float)D);
                m = fmaxf(m, p[j]);
            }
            for (int j = 0; j < S; j++) z += p[j] = expf(p[j] - m);
            for (int j = 0; j < S; j++)
                p[j] = causal && j > i + S - T ? 0.0f : p[j] / z;
            sink[bh * T + i] = p[0];
        }
}
