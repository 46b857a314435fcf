/* expect: WA sum_not_reset */
/* running sum l zeroed once per head instead of per query row; online softmax seeded from key 0, logit() helper doing scale/cap/bias, h-outer pointer walking, fixed-size stack acc[] */
#include <math.h>

static float logit(const float *qi, const float *kj, int D, float scale, int cap,
                   float slope, int dist)
{
    float s = 0.0f;
    for (int c = 0; c < D; c++) s += qi[c] * kj[c];
    s *= scale;
    if (cap > 0) s = (float)cap * tanhf(s / (float)cap);
    return s + slope * (float)dist;
}

void alibi_softcap_attention(float *out, const float *q, const float *k, const float *v,
                             int B, int H, int T, int S, int D, int cap, int alibi)
{
    const float scale = 1.0f / sqrtf((float)D);
    float acc[64];
    for (int b = 0; b < B; ++b)
        for (int h = 0; h < H; ++h) {
            const float slope = alibi ? exp2f(-8.0f * (float)(h + 1) / (float)H) : 0.0f;
            const float *K = k + (long)(b * H + h) * S * D, *V = v + (long)(b * H + h) * S * D;
            const float *qi = q + (long)(b * H + h) * T * D;
            float *oi = out + (long)(b * H + h) * T * D;
            float l = 0.0f;
            for (int i = 0; i < T; ++i, qi += D, oi += D) {
                const int pos = i + S - T;
                float m = logit(qi, K, D, scale, cap, slope, 0 - pos);
                for (int c = 0; c < D; ++c) acc[c] = 0.0f;
                for (int j = 0; j <= pos; ++j) {
                    float s = j == 0 ? m : logit(qi, K + (long)j * D, D, scale, cap, slope, j - pos);
                    if (s > m) {
                        float r = expf(m - s);
                        l *= r;
                        for (int c = 0; c < D; ++c) acc[c] *= r;
                        m = s;
                    }
                    float e = expf(s - m);
                    l += e;
                    for (int c = 0; c < D; ++c) acc[c] += e * V[(long)j * D + c];
                }
                for (int c = 0; c < D; ++c) oi[c] = acc[c] / l;
            }
        }
}
