/* expect: WA diagonal_masked */
/* Tiled, keys outer; inside a tile the mask is j >= i + (S - T), so a query loses its own key. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BR 16
#define BC 16

void flash_attention_backward(float *dq, float *dk, float *dv, const float *q,
                              const float *k, const float *v, const float *out,
                              const float *lse, const float *d_out, int B, int H, int T,
                              int S, int D, int causal)
{
    const float scale = 1.0f / sqrtf((float)D);
    float *Di = malloc(sizeof(float) * T);
    float P[BR][BC], dS[BR][BC];
    int off = S - T;
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (size_t)bh * T * D, *K = k + (size_t)bh * S * D, *V = v + (size_t)bh * S * D;
        const float *O = out + (size_t)bh * T * D, *dO = d_out + (size_t)bh * T * D;
        const float *L = lse + (size_t)bh * T;
        float *dQ = dq + (size_t)bh * T * D, *dK = dk + (size_t)bh * S * D, *dV = dv + (size_t)bh * S * D;
        for (int i = 0; i < T; i++) {
            float a = 0.0f;
            for (int c = 0; c < D; c++) a += dO[i * D + c] * O[i * D + c];
            Di[i] = a;
        }
        memset(dQ, 0, sizeof(float) * T * D);
        memset(dK, 0, sizeof(float) * S * D);
        memset(dV, 0, sizeof(float) * S * D);
        for (int j0 = 0; j0 < S; j0 += BC) {
            int nc = S - j0 < BC ? S - j0 : BC;
            for (int i0 = 0; i0 < T; i0 += BR) {
                int nr = T - i0 < BR ? T - i0 : BR;
                if (causal && j0 > i0 + nr - 1 + off) continue;
                for (int r = 0; r < nr; r++) {
                    int i = i0 + r;
                    for (int t = 0; t < nc; t++) {
                        int j = j0 + t;
                        if (causal && j >= i + off) { P[r][t] = 0.0f; dS[r][t] = 0.0f; continue; }
                        float s = 0.0f, dp = 0.0f;
                        for (int c = 0; c < D; c++) {
                            s += Q[i * D + c] * K[j * D + c];
                            dp += dO[i * D + c] * V[j * D + c];
                        }
                        P[r][t] = expf(scale * s - L[i]);
                        dS[r][t] = P[r][t] * (dp - Di[i]);
                    }
                }
                for (int r = 0; r < nr; r++) {
                    int i = i0 + r;
                    for (int t = 0; t < nc; t++) {
                        int j = j0 + t;
                        float p = P[r][t], ds = dS[r][t];
                        for (int c = 0; c < D; c++) {
                            dV[j * D + c] += p * dO[i * D + c];
                            dK[j * D + c] += scale * ds * Q[i * D + c];
                            dQ[i * D + c] += scale * ds * K[j * D + c];
                        }
                    }
                }
            }
        }
    }
    free(Di);
}
