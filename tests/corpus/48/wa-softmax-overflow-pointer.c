/* expect: WA softmax_overflow */
/* Pointer phases; the softmax phase calls expf on the raw scores, with no
 * max at all. */
#include <float.h>
#include <math.h>

void attn_weights(float *probs, float *sink, const float *q, const float *k,
                  int B, int H, int T, int S, int D, int causal)
{
    const float rs = 1.0f / sqrtf((float)D);
    int rows = B * H * T;
    for (int r = 0; r < rows; r++) {
        int bh = r / T, i = r % T;
        const float *qi = q + (long)r * D;
        const float *kj = k + (long)bh * S * D;
        float *p = probs + (long)r * S;
        for (int j = 0; j < S; j++, kj += D) {
            if (causal && j > i + S - T) { p[j] = -FLT_MAX; continue; }
            float s = 0.0f;
            for (int c = 0; c < D; c++) s += qi[c] * kj[c];
            p[j] = s * rs;
        }
    }
    for (float *p = probs; p < probs + (long)rows * S; p += S) {
        float z = 0.0f;
        for (int j = 0; j < S; j++) z += (p[j] = expf(p[j]));
        float inv = 1.0f / z;
        for (int j = 0; j < S; j++) p[j] *= inv;
    }
    for (int r = 0; r < rows; r++) sink[r] = probs[(long)r * S];
}
