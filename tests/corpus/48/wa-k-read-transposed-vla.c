/* expect: WA k_read_transposed */
/* Casts each head of k to a [D][S] VLA (thinking of Q K^T) so Kt[c][j] picks the wrong elements. */
#include <math.h>
#include <stdlib.h>

void attn_weights(float *probs, float *sink, const float *q, const float *k,
                  int B, int H, int T, int S, int D, int causal)
{
    const float (*Q)[H][T][D] = (const float (*)[H][T][D])q;
    const float (*Kt)[H][D][S] = (const float (*)[H][D][S])k;
    float (*P)[H][T][S] = (float (*)[H][T][S])probs;
    float (*SK)[H][T] = (float (*)[H][T])sink;
    const double scale = 1.0 / sqrt((double)D);

    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < T; i++) {
                double s[S];
                double m = -HUGE_VAL, z = 0.0;
                for (int j = 0; j < S; j++) {
                    s[j] = 0.0;
                    for (int c = 0; c < D; c++) s[j] += (double)Q[b][h][i][c] * Kt[b][h][c][j];
                    s[j] *= scale;
                    if (causal && j > i + S - T) s[j] = -HUGE_VAL;
                    if (s[j] > m) m = s[j];
                }
                for (int j = 0; j < S; j++) z += (s[j] = exp(s[j] - m));
                for (int j = 0; j < S; j++) P[b][h][i][j] = (float)(s[j] / z);
                SK[b][h][i] = P[b][h][i][0];
            }
}
