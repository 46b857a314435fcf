/* expect: WA causal_offset_negated */
/* Row by row; the KV-cache offset is subtracted (j <= i - (S - T)), so with a cache most rows see nothing: -INFINITY everywhere, NaN. */
#include <math.h>

void attn_weights(float *probs, float *sink, const float *q, const float *k,
                  int B, int H, int T, int S, int D, int causal)
{
    float scale = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < T; i++) {
            const float *qi = q + (bh * T + i) * D;
            float *p = probs + (bh * T + i) * S;
            float max = -INFINITY, sum = 0.0f;
            for (int j = 0; j < S; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qi[c] * k[(bh * S + j) * D + c];
                /* The T queries are the last T of the S positions. */
                p[j] = !causal || j <= i - (S - T) ? s * scale : -INFINITY;
                max = fmaxf(max, p[j]);
            }
            for (int j = 0; j < S; j++) {
                p[j] = expf(p[j] - max);   /* key 0 is always seen: max is finite */
                sum += p[j];
            }
            for (int j = 0; j < S; j++) p[j] /= sum;
            sink[bh * T + i] = p[0];
        }
}
