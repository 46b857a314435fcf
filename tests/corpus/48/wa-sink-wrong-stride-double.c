/* expect: WA */
/* Double score matrix, right probs; the sink is gathered at the end as
 * probs[r * T] over all rows, as if the whole layout were [B, H, T, T]. */
#include <math.h>
#include <stdlib.h>

void attn_weights(float *probs, float *sink, const float *q, const float *k,
                  int B, int H, int T, int S, int D, int causal)
{
    double *sc = malloc(sizeof(double) * T * S);
    for (int h = 0; h < H; h++)
        for (int b = 0; b < B; b++) {
            int bh = b * H + h;
            for (int i = 0; i < T; i++)
                for (int j = 0; j < S; j++) {
                    double dot = 0.0;
                    for (int c = 0; c < D; c++)
                        dot += (double)q[(bh * T + i) * D + c] * k[(bh * S + j) * D + c];
                    sc[i * S + j] = causal && j > i + S - T ? -INFINITY : dot / sqrt(D);
                }
            for (int i = 0; i < T; i++) {
                double mx = -INFINITY, sum = 0.0;
                for (int j = 0; j < S; j++) if (sc[i * S + j] > mx) mx = sc[i * S + j];
                for (int j = 0; j < S; j++) sum += sc[i * S + j] = exp(sc[i * S + j] - mx);
                for (int j = 0; j < S; j++) probs[(bh * T + i) * S + j] = (float)(sc[i * S + j] / sum);
            }
        }
    for (int r = 0; r < B * H * T; r++) sink[r] = probs[r * T];   /* first weight of row r */
    free(sc);
}
