/* expect: WA no_scale */
/* Keys outer, one row of P at a time; the scale written pow(D, -1/2), which C reads as pow(D, 0) = 1. */
#include <math.h>
#include <stdlib.h>

void flash_attention_backward(float *dq, float *dk, float *dv, const float *q,
                              const float *k, const float *v, const float *out,
                              const float *lse, const float *d_out, int B, int H, int T,
                              int S, int D, int causal)
{
    const float scale = (float)pow((double)D, -1 / 2);
    float *di = malloc(sizeof(float) * (T > 0 ? T : 1));
    for (long bh = 0; bh < (long)B * H; bh++) {
        const float *Q = q + bh * T * D, *K = k + bh * S * D, *V = v + bh * S * D;
        const float *O = out + bh * T * D, *G = d_out + bh * T * D, *L = lse + bh * T;
        float *gQ = dq + bh * T * D, *gK = dk + bh * S * D, *gV = dv + bh * S * D;
        for (long e = 0; e < (long)T * D; e++) gQ[e] = 0.0f;
        for (int i = 0; i < T; i++) {
            di[i] = 0.0f;
            for (int c = 0; c < D; c++) di[i] += G[i * D + c] * O[i * D + c];
        }
        for (int j = 0; j < S; j++) {
            float *kv = gK + (long)j * D, *vv = gV + (long)j * D;
            for (int c = 0; c < D; c++) kv[c] = vv[c] = 0.0f;
            for (int i = causal ? (j - (S - T) > 0 ? j - (S - T) : 0) : 0; i < T; i++) {
                float s = 0.0f, dp = 0.0f;
                for (int c = 0; c < D; c++) {
                    s += Q[i * D + c] * K[j * D + c];
                    dp += G[i * D + c] * V[j * D + c];
                }
                float p = expf(s * scale - L[i]), ds = p * (dp - di[i]) * scale;
                for (int c = 0; c < D; c++) {
                    vv[c] += p * G[i * D + c];
                    kv[c] += ds * Q[i * D + c];
                    gQ[i * D + c] += ds * K[j * D + c];
                }
            }
        }
    }
    free(di);
}
