/* expect: WA dq_missing_scale */
/* dq missing scale */
#include <math.h>
#include <string.h>
/* queries outer, one row at a time, P from lse, delta = dO . out; no buffers at all */
void flash_attention_backward(float *dq, float *dk, float *dv, const float *q,
                              const float *k, const float *v, const float *out,
                              const float *lse, const float *d_out, int B, int H, int T,
                              int S, int D, int causal)
{
    float sc = 1.0f / sqrtf((float)D);
    memset(dk, 0, sizeof(float) * (size_t)B * H * S * D);
    memset(dv, 0, sizeof(float) * (size_t)B * H * S * D);
    for (int bh = 0; bh < B * H; bh++) {
        for (int i = 0; i < T; i++) {
            const float *qi = q + ((size_t)bh * T + i) * D, *gi = d_out + ((size_t)bh * T + i) * D, *oi = out + ((size_t)bh * T + i) * D;
            float *dqi = dq + ((size_t)bh * T + i) * D;
            float L = lse[(size_t)bh * T + i];
            float Di = 0;
            for (int c = 0; c < D; c++) { Di += gi[c] * oi[c]; dqi[c] = 0; }
            int end = causal ? i + S - T + 1 : S;
            if (end > S) end = S;
            for (int j = 0; j < end; j++) {
                const float *kj = k + ((size_t)bh * S + j) * D, *vj = v + ((size_t)bh * S + j) * D;
                float s = 0, dp = 0;
                for (int c = 0; c < D; c++) { s += qi[c] * kj[c]; dp += gi[c] * vj[c]; }
                float p = expf(s * sc - L);
                float ds = p * (dp - Di);
                float *dkj = dk + ((size_t)bh * S + j) * D, *dvj = dv + ((size_t)bh * S + j) * D;
                for (int c = 0; c < D; c++) {
                    dvj[c] += p * gi[c];
                    dkj[c] += sc * ds * qi[c];
                    dqi[c] += ds * kj[c];
                }
            }
        }
    }
}
