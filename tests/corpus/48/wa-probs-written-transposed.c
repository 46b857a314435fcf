/* expect: WA probs_written_transposed */
/* probs is written in [B, H, S, T] layout (key-major), i.e. the weight of query i on key j lands at j*T + i. */
#include <math.h>
#include <stdlib.h>

void attn_weights(float *probs, float *sink, const float *q, const float *k,
                  int B, int H, int T, int S, int D, int causal)
{
    float *w = malloc(sizeof(float) * S);
    float scale = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        float *P = probs + (size_t)bh * T * S;
        for (int i = 0; i < T; i++) {
            float m = -INFINITY;
            for (int j = 0; j < S; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += q[((size_t)bh * T + i) * D + c] * k[((size_t)bh * S + j) * D + c];
                w[j] = (!causal || j <= i + S - T) ? s * scale : -INFINITY;
                if (w[j] > m) m = w[j];
            }
            float sum = 0.0f;
            for (int j = 0; j < S; j++) { w[j] = expf(w[j] - m); sum += w[j]; }
            for (int j = 0; j < S; j++) P[j * T + i] = w[j] / sum;
            sink[bh * T + i] = w[0] / sum;
        }
    }
    free(w);
}
