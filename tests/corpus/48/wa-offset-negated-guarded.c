/* expect: WA causal_offset_negated */
/* Scores into a scratch row; "the queries sit S - T before the end" read the wrong way round. A row that sees no key is left all zeros. */
#include <math.h>
#include <stdlib.h>

void attn_weights(float *probs, float *sink, const float *q, const float *k,
                  int B, int H, int T, int S, int D, int causal)
{
    float *row = malloc(sizeof(float) * S);
    const float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++) {
        for (int h = 0; h < H; h++) {
            for (int t = 0; t < T; t++) {
                long base = ((long)(b * H + h) * T + t);
                int visible = S;
                if (causal) {
                    visible = t - (S - T) + 1;
                    if (visible > S) visible = S;
                }
                for (int j = 0; j < S; j++) probs[base * S + j] = 0.0f;
                if (visible <= 0) {
                    sink[base] = 0.0f;
                    continue;
                }
                float mx = -INFINITY;
                for (int j = 0; j < visible; j++) {
                    float d = 0.0f;
                    for (int c = 0; c < D; c++)
                        d += q[base * D + c] * k[((long)(b * H + h) * S + j) * D + c];
                    row[j] = d * scale;
                    if (row[j] > mx) mx = row[j];
                }
                float total = 0.0f;
                for (int j = 0; j < visible; j++) {
                    row[j] = expf(row[j] - mx);
                    total += row[j];
                }
                for (int j = 0; j < visible; j++) probs[base * S + j] = row[j] / total;
                sink[base] = probs[base * S];
            }
        }
    }
    free(row);
}
