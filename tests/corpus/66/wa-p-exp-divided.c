/* expect: WA p_exp_divided */
/* Row by row, no tiles: P = exp(s) / exp(lse), "the softmax with its saved denominator"; fine until a score passes 88. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void flash_attention_backward(float *dq, float *dk, float *dv, const float *q,
                              const float *k, const float *v, const float *out,
                              const float *lse, const float *d_out, int B, int H, int T,
                              int S, int D, int causal)
{
    const float sc = 1.0f / sqrtf((float)D);
    memset(dq, 0, sizeof(float) * (size_t)B * H * T * D);
    memset(dk, 0, sizeof(float) * (size_t)B * H * S * D);
    memset(dv, 0, sizeof(float) * (size_t)B * H * S * D);
    for (size_t n = 0; n < (size_t)B * H; n++) {
        const float *Q = q + n * T * D, *K = k + n * S * D, *V = v + n * S * D;
        const float *O = out + n * T * D, *G = d_out + n * T * D, *L = lse + n * T;
        float *gq = dq + n * T * D, *gk = dk + n * S * D, *gv = dv + n * S * D;
        for (int i = 0; i < T; i++) {
            float di = 0.0f;
            for (int c = 0; c < D; c++) di += G[i * D + c] * O[i * D + c];
            const float denom = expf(L[i]);
            const int last = causal ? i + S - T : S - 1;
            for (int j = 0; j <= last; j++) {
                float s = 0.0f, dp = 0.0f;
                for (int c = 0; c < D; c++) {
                    s += Q[i * D + c] * K[j * D + c];
                    dp += G[i * D + c] * V[j * D + c];
                }
                const float p = expf(s * sc) / denom;
                const float ds = p * (dp - di) * sc;
                for (int c = 0; c < D; c++) {
                    gv[j * D + c] += p * G[i * D + c];
                    gk[j * D + c] += ds * Q[i * D + c];
                    gq[i * D + c] += ds * K[j * D + c];
                }
            }
        }
    }
}
