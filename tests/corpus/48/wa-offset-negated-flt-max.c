/* expect: WA causal_offset_negated */
/* Masked scores set to -FLT_MAX (not -INFINITY), with the offset subtracted: a row that sees nothing comes out uniform. */
#include <float.h>
#include <math.h>

void attn_weights(float *probs, float *sink, const float *q, const float *k,
                  int B, int H, int T, int S, int D, int causal)
{
    int shift = S - T;
    for (int n = 0; n < B * H * T; n++) {
        int i = n % T, bh = n / T;
        float *p = probs + (long)n * S;
        float m = -FLT_MAX;
        for (int j = 0; j < S; j++) {
            if (causal && j > i - shift) {
                p[j] = -FLT_MAX;
                continue;
            }
            float s = 0.0f;
            for (int c = 0; c < D; c++) s += q[(long)n * D + c] * k[((long)bh * S + j) * D + c];
            p[j] = s / sqrtf((float)D);
            if (p[j] > m) m = p[j];
        }
        float z = 0.0f;
        for (int j = 0; j < S; j++) z += p[j] = expf(p[j] - m);
        for (int j = 0; j < S; j++) p[j] /= z;
        sink[n] = p[0];
    }
}
