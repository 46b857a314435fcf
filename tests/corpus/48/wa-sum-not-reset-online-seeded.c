/* expect: WA sum_not_reset */
/* running sum l not reset per query row (declared once above the loops); online max/sum pass seeded from key 0, then a second pass writing probs, pointer arithmetic, score() helper, loop bound instead of a mask value */
#include <math.h>

static float score(const float *a, const float *b, int D, float scale)
{
    float s = 0.0f;
    for (const float *e = a + D; a < e; ++a, ++b) s += *a * *b;
    return s * scale;
}

void attn_weights(float *probs, float *sink, const float *q, const float *k,
                  int B, int H, int T, int S, int D, int causal)
{
    const float scale = 1.0f / sqrtf((float)D);
    float l = 0.0f;
    const float *qi = q;
    float *prow = probs;
    float *sk = sink;
    for (int bh = 0; bh < B * H; bh++) {
        const float *kh = k + (long)bh * S * D;
        for (int i = 0; i < T; i++, qi += D, prow += S, sk++) {
            int last = causal ? i + (S - T) : S - 1;
            /* online pass: running max and running sum */
            float m = score(qi, kh, D, scale);
            l += 1.0f;
            for (int j = 1; j <= last; j++) {
                float s = score(qi, kh + (long)j * D, D, scale);
                if (s > m) {
                    l = l * expf(m - s) + 1.0f;
                    m = s;
                } else {
                    l += expf(s - m);
                }
            }
            for (int j = 0; j < S; j++)
                prow[j] = j <= last ? expf(score(qi, kh + (long)j * D, D, scale) - m) / l : 0.0f;
            *sk = prow[0];
        }
    }
}
