/* expect: WA max_starts_at_zero */
/* Online softmax whose running max starts at 0: a row whose visible
 * scores all lie far below zero underflows. */
#include <math.h>

static float score(const float *qi, const float *kj, int D, float scale)
{
    float s = 0.0f;
    for (int c = 0; c < D; c++) s += qi[c] * kj[c];
    return s * scale;
}

void attn_weights(float *probs, float *sink, const float *q, const float *k,
                  int B, int H, int T, int S, int D, int causal)
{
    const float scale = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *kb = k + (long)bh * S * D;
        for (int i = 0; i < T; i++) {
            const float *qi = q + ((long)bh * T + i) * D;
            float *p = probs + ((long)bh * T + i) * S;
            int seen = causal ? i + S - T + 1 : S;      /* keys 0 .. seen-1 */
            float m = 0.0f, l = 0.0f;
            for (int j = 0; j < seen; j++) {
                float s = score(qi, kb + (long)j * D, D, scale);
                if (s > m) {
                    l = l * expf(m - s) + 1.0f;
                    m = s;
                } else {
                    l += expf(s - m);
                }
            }
            for (int j = 0; j < S; j++)
                p[j] = j < seen ? expf(score(qi, kb + (long)j * D, D, scale) - m) / l : 0.0f;
            sink[(long)bh * T + i] = p[0];
        }
    }
}
