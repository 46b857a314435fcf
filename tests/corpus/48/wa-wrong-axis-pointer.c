/* expect: WA wrong_axis */
/* Pointer phases whose softmax phase walks column j with stride S: each
 * key is normalised over the queries. */
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
    for (int bh = 0; bh < B * H; bh++)
        for (int j = 0; j < S; j++) {
            float *p = probs + (long)bh * T * S + j;      /* column j: stride S */
            float m = -FLT_MAX, z = 0.0f;
            for (int i = 0; i < T; i++) m = p[i * S] > m ? p[i * S] : m;
            for (int i = 0; i < T; i++) z += (p[i * S] = expf(p[i * S] - m));
            float inv = 1.0f / z;
            for (int i = 0; i < T; i++) p[i * S] *= inv;
        }
    for (int r = 0; r < rows; r++) sink[r] = probs[(long)r * S];
}
