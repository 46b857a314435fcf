/* expect: AC */
/* The whole score matrix first (in double), an additive causal mask, then a
 * softmax over each row; the sink share is column 0 of the result. */
#include <math.h>
#include <stdlib.h>

void attn_weights(float *probs, float *sink, const float *q, const float *k,
                  int B, int H, int T, int S, int D, int causal)
{
    double *s = malloc(sizeof(double) * T * S);
    for (int bh = 0; bh < B * H; bh++) {
        for (int i = 0; i < T; i++)
            for (int j = 0; j < S; j++) {
                double dot = 0.0;
                for (int c = 0; c < D; c++)
                    dot += (double)q[(bh * T + i) * D + c] * k[(bh * S + j) * D + c];
                s[i * S + j] = dot / sqrt((double)D) + (causal && j > i + S - T ? -INFINITY : 0.0);
            }
        for (int i = 0; i < T; i++) {
            double m = -INFINITY, z = 0.0;
            for (int j = 0; j < S; j++) m = fmax(m, s[i * S + j]);
            for (int j = 0; j < S; j++) z += exp(s[i * S + j] - m);
            for (int j = 0; j < S; j++)
                probs[(bh * T + i) * S + j] = (float)(exp(s[i * S + j] - m) / z);
            sink[bh * T + i] = probs[(bh * T + i) * S];
        }
    }
    free(s);
}
