/* expect: WA no_rescale */
/* One pass for the max and the sum of exps, as online softmax does, then the weights from them; the sum is never rescaled when the max moves. */
#include <math.h>
#include <stddef.h>

static float dot(const float *a, const float *b, int n)
{
    float s = 0.0f;
    for (int c = 0; c < n; c++) s += a[c] * b[c];
    return s;
}

void attn_weights(float *probs, float *sink, const float *q, const float *k,
                  int B, int H, int T, int S, int D, int causal)
{
    float scale = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < T; i++) {
            const float *qi = q + ((size_t)bh * T + i) * D;
            const float *kb = k + (size_t)bh * S * D;
            float *p = probs + ((size_t)bh * T + i) * S;
            int last = causal ? i + S - T : S - 1;
            float m = -INFINITY, l = 0.0f;
            for (int j = 0; j <= last; j++) {
                p[j] = dot(qi, kb + (size_t)j * D, D) * scale;
                if (p[j] > m) m = p[j];
                l += expf(p[j] - m);
            }
            for (int j = 0; j < S; j++) p[j] = j <= last ? expf(p[j] - m) / l : 0.0f;
            sink[(size_t)bh * T + i] = p[0];
        }
}
