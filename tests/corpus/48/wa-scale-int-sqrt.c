/* expect: WA scale_sqrt_truncated */
/* scale = 1.0f / (int)sqrt(D): the root cut before the division. */
#include <math.h>
static float dot(const float *a, const float *b, int n)
{
    float s = 0.0f;
    for (int c = 0; c < n; c++) s += a[c] * b[c];
    return s;
}
static int visible(int i, int j, int T, int S, int causal)
{
    return !causal || j <= i + (S - T);
}
void attn_weights(float *probs, float *sink, const float *q, const float *k,
                  int B, int H, int T, int S, int D, int causal)
{
    int r = (int)sqrt(D); float scale = 1.0f / r;
    for (int bh = 0; bh < B * H; bh++) {
        for (int i = 0; i < T; i++) {
            const float *qi = q + ((long)bh * T + i) * D;
            float *row = probs + ((long)bh * T + i) * S;
            float m = -INFINITY;
            for (int j = 0; j < S; j++) {
                if (visible(i, j, T, S, causal)) {
                    row[j] = dot(qi, k + ((long)bh * S + j) * D, D) * scale;
                    if (row[j] > m) m = row[j];
                }
            }
            float sum = 0.0f;
            for (int j = 0; j < S; j++) {
                if (visible(i, j, T, S, causal)) {
                    row[j] = expf(row[j] - m);
                    sum += row[j];
                } else {
                    row[j] = 0.0f;
                }
            }
            for (int j = 0; j < S; j++) row[j] /= sum;
            sink[(long)bh * T + i] = row[0];
        }
    }
}
