/* expect: WA scale_sqrt_keys */
/* The scores are divided by sqrt(S), the number of keys, not sqrt(D). */
#include <math.h>

static float dot(const float *a, const float *b, int n)
{
    float s = 0.0f;
    for (int c = 0; c < n; c++) s += a[c] * b[c];
    return s;
}

static void softmax_row(float *p, int n)
{
    float m = -INFINITY, s = 0.0f;
    for (int j = 0; j < n; j++) m = fmaxf(m, p[j]);
    for (int j = 0; j < n; j++) { p[j] = expf(p[j] - m); s += p[j]; }
    for (int j = 0; j < n; j++) p[j] /= s;
}

void attn_weights(float *probs, float *sink, const float *q, const float *k,
                  int B, int H, int T, int S, int D, int causal)
{
    const float inv_sqrt = 1.0f / sqrtf((float)S);
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + bh * T * D, *K = k + bh * S * D;
        for (int i = 0; i < T; i++) {
            float *p = probs + (bh * T + i) * S;
            for (int j = 0; j < S; j++) {
                int visible = !causal || j <= i + (S - T);
                p[j] = visible ? dot(Q + i * D, K + j * D, D) * inv_sqrt : -INFINITY;
            }
            softmax_row(p, S);
            sink[bh * T + i] = p[0];
        }
    }
}
