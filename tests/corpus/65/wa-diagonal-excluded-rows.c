/* expect: WA diagonal_masked */
/* Row at a time, the causal mask off by one: a query does not see its own position (j < i + S - T). */
#include <math.h>
#include <string.h>

void attention_backward(float *dq, float *dk, float *dv, const float *q, const float *k,
                        const float *v, const float *d_out, int B, int H, int T, int S,
                        int D, int causal)
{
    float scale = 1.0f / sqrtf((float)D);
    memset(dk, 0, sizeof(float) * B * H * S * D);
    memset(dv, 0, sizeof(float) * B * H * S * D);
    memset(dq, 0, sizeof(float) * B * H * T * D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *qi = q + bh * T * D, *gi = d_out + bh * T * D;
        float *dqi = dq + bh * T * D;
        const float *K = k + bh * S * D, *V = v + bh * S * D;
        float *dK = dk + bh * S * D, *dV = dv + bh * S * D;
        for (int i = 0; i < T; i++, qi += D, gi += D, dqi += D) {
            int hi = causal ? i + S - T - 1 : S - 1;
            if (hi >= S) hi = S - 1;
            if (hi < 0) continue;
            float p[hi + 1], dp[hi + 1], m = -INFINITY, l = 0.0f, rs = 0.0f;
            for (int j = 0; j <= hi; j++) {
                const float *kj = K + j * D, *vj = V + j * D;
                float s = 0.0f, t = 0.0f;
                for (int c = 0; c < D; c++) {
                    s += qi[c] * kj[c];
                    t += gi[c] * vj[c];
                }
                p[j] = s * scale;
                dp[j] = t;
                m = fmaxf(m, p[j]);
            }
            for (int j = 0; j <= hi; j++) l += p[j] = expf(p[j] - m);
            for (int j = 0; j <= hi; j++) rs += (p[j] /= l) * dp[j];
            for (int j = 0; j <= hi; j++) {
                float ds = scale * p[j] * (dp[j] - rs);
                for (int c = 0; c < D; c++) {
                    dqi[c] += ds * K[j * D + c];
                    dK[j * D + c] += ds * qi[c];
                    dV[j * D + c] += p[j] * gi[c];
                }
            }
        }
    }
}
