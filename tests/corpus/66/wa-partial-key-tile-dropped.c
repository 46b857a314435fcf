/* expect: WA partial_key_tile_dropped */
/* The key-tile loop runs only over full tiles (kb + BK <= S), dropping the last partial tile of keys. */
#include <math.h>
#include <stdlib.h>

#define BQ 32
#define BK 32

void flash_attention_backward(float *dq, float *dk, float *dv, const float *q,
                              const float *k, const float *v, const float *out,
                              const float *lse, const float *d_out, int B, int H, int T,
                              int S, int D, int causal)
{
    const float scale = 1.0f / sqrtf((float)D);
    float P[BQ][BK], dS[BQ][BK];
    float *Di = (float *)malloc(sizeof(float) * T);
    int off = S - T;

    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (long)bh * T * D, *K = k + (long)bh * S * D, *V = v + (long)bh * S * D;
        const float *O = out + (long)bh * T * D, *dO = d_out + (long)bh * T * D;
        const float *L = lse + (long)bh * T;
        float *dQ = dq + (long)bh * T * D, *dK = dk + (long)bh * S * D, *dV = dv + (long)bh * S * D;

        for (int i = 0; i < T; i++) {
            float acc = 0.0f;
            for (int c = 0; c < D; c++) acc += dO[i * D + c] * O[i * D + c];
            Di[i] = acc;
        }
        for (int x = 0; x < T * D; x++) dQ[x] = 0.0f;
        for (int x = 0; x < S * D; x++) { dK[x] = 0.0f; dV[x] = 0.0f; }

        for (int kb = 0; kb + BK <= S; kb += BK) {
            int kn = (S - kb < BK) ? S - kb : BK;
            for (int qb = 0; qb < T; qb += BQ) {
                int qn = (T - qb < BQ) ? T - qb : BQ;
                /* whole tile in the future of all its queries: skip */
                if (causal && kb > qb + qn - 1 + off) continue;

                for (int r = 0; r < qn; r++) {
                    int i = qb + r;
                    for (int t = 0; t < kn; t++) {
                        int j = kb + t;
                        if (causal && j > i + off) { P[r][t] = 0.0f; dS[r][t] = 0.0f; continue; }
                        float s = 0.0f, dp = 0.0f;
                        for (int c = 0; c < D; c++) {
                            s += Q[i * D + c] * K[j * D + c];
                            dp += dO[i * D + c] * V[j * D + c];
                        }
                        P[r][t] = expf(scale * s - L[i]);
                        dS[r][t] = P[r][t] * (dp - Di[i]);
                    }
                }
                /* dV += P^T dO, dK += scale dS^T Q */
                for (int t = 0; t < kn; t++) {
                    int j = kb + t;
                    for (int r = 0; r < qn; r++) {
                        int i = qb + r;
                        for (int c = 0; c < D; c++) {
                            dV[j * D + c] += P[r][t] * dO[i * D + c];
                            dK[j * D + c] += scale * dS[r][t] * Q[i * D + c];
                        }
                    }
                }
                /* dQ += scale dS K */
                for (int r = 0; r < qn; r++) {
                    int i = qb + r;
                    for (int t = 0; t < kn; t++) {
                        int j = kb + t;
                        for (int c = 0; c < D; c++) dQ[i * D + c] += scale * dS[r][t] * K[j * D + c];
                    }
                }
            }
        }
    }
    free(Di);
}
