/* expect: WA softcap_clamped */
/* soft cap implemented by a clampf() helper (hard clip to [-cap, cap]) instead of cap * tanh(s / cap); online softmax from m = -INFINITY, logit() helper, pointer walking, fixed-size stack acc[] */
#include <math.h>

static float clampf(float x, float lo, float hi) { return x < lo ? lo : (x > hi ? hi : x); }

static float logit(const float *a, const float *b, int D, float scale, int cap)
{
    float s = 0.0f;
    for (int c = 0; c < D; c++) s += a[c] * b[c];
    s *= scale;
    if (cap > 0) s = clampf(s, -(float)cap, (float)cap);
    return s;
}

void alibi_softcap_attention(float *out, const float *q, const float *k, const float *v,
                             int B, int H, int T, int S, int D, int cap, int alibi)
{
    const float scale = 1.0f / sqrtf((float)D);
    float acc[64];
    const float *qi = q;
    float *oi = out;
    for (int b = 0; b < B; ++b)
        for (int h = 0; h < H; ++h) {
            const float slope = alibi ? exp2f(-8.0f * (float)(h + 1) / (float)H) : 0.0f;
            const float *K = k + (long)(b * H + h) * S * D, *V = v + (long)(b * H + h) * S * D;
            for (int i = 0; i < T; ++i, qi += D, oi += D) {
                const int pos = i + S - T;
                float m = -INFINITY, l = 0.0f;
                for (int c = 0; c < D; ++c) acc[c] = 0.0f;
                for (int j = 0; j <= pos; ++j) {
                    float s = logit(qi, K + (long)j * D, D, scale, cap) + slope * (float)(j - pos);
                    float mn = fmaxf(m, s);
                    float r = expf(m - mn), e = expf(s - mn);
                    l = l * r + e;
                    for (int c = 0; c < D; ++c) acc[c] = acc[c] * r + e * V[(long)j * D + c];
                    m = mn;
                }
                for (int c = 0; c < D; ++c) oi[c] = acc[c] / l;
            }
        }
}
