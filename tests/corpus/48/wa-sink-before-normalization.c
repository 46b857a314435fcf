/* expect: WA sink_before_normalization */
/* The sink share is stored right after the exp, before the row is divided by its sum, so it is exp(s0 - max) rather than P[i][0]. */
#include <math.h>

void attn_weights(float *probs, float *sink, const float *q, const float *k,
                  int B, int H, int T, int S, int D, int causal)
{
    const float scale = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < T; i++) {
            float *p = probs + (bh * T + i) * S;
            float m = -INFINITY;
            for (int j = 0; j < S; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += q[(bh * T + i) * D + c] * k[(bh * S + j) * D + c];
                p[j] = (causal && j > i + S - T) ? -INFINITY : s * scale;
                m = fmaxf(m, p[j]);
            }
            float sum = 0.0f;
            for (int j = 0; j < S; j++) {
                p[j] = expf(p[j] - m);
                sum += p[j];
                if (j == 0) sink[bh * T + i] = p[0];
            }
            for (int j = 0; j < S; j++) p[j] /= sum;
        }
}
