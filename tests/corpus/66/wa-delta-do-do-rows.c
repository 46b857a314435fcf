/* expect: WA delta_from_do_do */
/* One query at a time; D_i = dO_i . dO_i, out never read. */
#include <math.h>

void flash_attention_backward(float *dq, float *dk, float *dv, const float *q,
                              const float *k, const float *v, const float *out,
                              const float *lse, const float *d_out, int B, int H, int T,
                              int S, int D, int causal)
{
    const float scale = 1.0f / sqrtf((float)D);
    for (long e = 0; e < (long)B * H * S * D; e++) dk[e] = dv[e] = 0.0f;
    for (int bh = 0; bh < B * H; bh++) {
        const float *K = k + (long)bh * S * D, *V = v + (long)bh * S * D;
        float *dK = dk + (long)bh * S * D, *dV = dv + (long)bh * S * D;
        for (int i = 0; i < T; i++) {
            long r = (long)bh * T + i;
            const float *qi = q + r * D, *gi = d_out + r * D;
            (void)out;
            float *dqi = dq + r * D;
            float Di = 0.0f;
            for (int c = 0; c < D; c++) {
                Di += gi[c] * gi[c];
                dqi[c] = 0.0f;
            }
            int n = causal ? i + S - T + 1 : S;
            for (int j = 0; j < n; j++) {
                const float *kj = K + (long)j * D, *vj = V + (long)j * D;
                float s = 0.0f, dp = 0.0f;
                for (int c = 0; c < D; c++) {
                    s += qi[c] * kj[c];
                    dp += gi[c] * vj[c];
                }
                float p = expf(s * scale - lse[r]);
                float ds = p * (dp - Di) * scale;
                for (int c = 0; c < D; c++) {
                    dqi[c] += ds * kj[c];
                    dK[(long)j * D + c] += ds * qi[c];
                    dV[(long)j * D + c] += p * gi[c];
                }
            }
        }
    }
}
