/* expect: WA denominator_not_reset */
/* 递推形式：每个 (b, h) 清零状态 S、z 和分母，然后逐个位置更新。 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PHI(x) ((x) > 0.0f ? (x) + 1.0f : expf(x))

void linear_attention(float *out, const float *q, const float *k, const float *v, int B, int H,
                      int T, int D, int E)
{
    float S[D][E], z[D];
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (size_t)bh * T * D, *K = k + (size_t)bh * T * D, *V = v + (size_t)bh * T * E;
        float *O = out + (size_t)bh * T * E;
        memset(S, 0, sizeof S);
        memset(z, 0, sizeof z);
        float den = 0.0f;
        for (int t = 0; t < T; t++) {
            for (int c = 0; c < D; c++) {
                float f = PHI(K[t * D + c]);
                z[c] += f;
                for (int e = 0; e < E; e++) S[c][e] += f * V[t * E + e];
            }
            for (int c = 0; c < D; c++) den += PHI(Q[t * D + c]) * z[c];
            for (int e = 0; e < E; e++) {
                float num = 0.0f;
                for (int c = 0; c < D; c++) num += PHI(Q[t * D + c]) * S[c][e];
                O[t * E + e] = num / den;
            }
        }
    }
}
