/* expect: WA */
/* Tiled 64 x 64: for each key tile the query tiles start at the first query that can see it, worked out from S - T whether or not the call is causal. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TQ 64
#define TK 64

void flash_attention_backward(float *dq, float *dk, float *dv, const float *q,
                              const float *k, const float *v, const float *out,
                              const float *lse, const float *d_out, int B, int H, int T,
                              int S, int D, int causal)
{
    static float P[TQ][TK];
    float *Di = malloc(sizeof(float) * (T > 0 ? T : 1));
    const float scale = 1.0f / sqrtf((float)D);
    const int shift = S - T;
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (size_t)bh * T * D, *K = k + (size_t)bh * S * D, *V = v + (size_t)bh * S * D;
        const float *O = out + (size_t)bh * T * D, *dO = d_out + (size_t)bh * T * D, *L = lse + (size_t)bh * T;
        float *dQ = dq + (size_t)bh * T * D, *dK = dk + (size_t)bh * S * D, *dV = dv + (size_t)bh * S * D;
        memset(dQ, 0, sizeof(float) * (size_t)T * D);
        memset(dK, 0, sizeof(float) * (size_t)S * D);
        memset(dV, 0, sizeof(float) * (size_t)S * D);
        for (int i = 0; i < T; i++) {
            Di[i] = 0.0f;
            for (int c = 0; c < D; c++) Di[i] += dO[i * D + c] * O[i * D + c];
        }
        for (int kt = 0; kt < S; kt += TK) {
            const int kn = S - kt < TK ? S - kt : TK;
            /* no query before kt - shift sees a key of this tile */
            const int start = kt - shift > 0 ? (kt - shift) / TQ * TQ : 0;
            for (int qt = start; qt < T; qt += TQ) {
                const int qn = T - qt < TQ ? T - qt : TQ;
                for (int a = 0; a < qn; a++)
                    for (int b = 0; b < kn; b++) {
                        const int i = qt + a, j = kt + b;
                        if (causal && j > i + shift) { P[a][b] = 0.0f; continue; }
                        float s = 0.0f;
                        for (int c = 0; c < D; c++) s += Q[i * D + c] * K[j * D + c];
                        P[a][b] = expf(s * scale - L[i]);
                    }
                for (int a = 0; a < qn; a++)
                    for (int b = 0; b < kn; b++) {
                        const int i = qt + a, j = kt + b;
                        float dp = 0.0f;
                        for (int c = 0; c < D; c++) dp += dO[i * D + c] * V[j * D + c];
                        const float ds = P[a][b] * (dp - Di[i]) * scale;
                        for (int c = 0; c < D; c++) {
                            dV[j * D + c] += P[a][b] * dO[i * D + c];
                            dK[j * D + c] += ds * Q[i * D + c];
                            dQ[i * D + c] += ds * K[j * D + c];
                        }
                    }
            }
        }
    }
    free(Di);
}
