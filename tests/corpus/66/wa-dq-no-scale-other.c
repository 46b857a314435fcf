/* expect: WA dq_missing_scale */
/* dq missing scale */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#define BQ 32
#define BK 32
/* FA2 order with 32x32 tiles: P tile and dS tile as static arrays, causal tiles skipped when fully in the future */
static float Pt[BQ][BK], dSt[BQ][BK];
void flash_attention_backward(float *dq, float *dk, float *dv, const float *q,
                              const float *k, const float *v, const float *out,
                              const float *lse, const float *d_out, int B, int H, int T,
                              int S, int D, int causal)
{
    const float scale = 1.0f / sqrtf((float)D);
    float *Dv = malloc(sizeof(float) * T);
    int off = S - T;
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (size_t)bh * T * D, *K = k + (size_t)bh * S * D, *V = v + (size_t)bh * S * D;
        const float *O = out + (size_t)bh * T * D, *G = d_out + (size_t)bh * T * D, *L = lse + (size_t)bh * T;
        float *DQ = dq + (size_t)bh * T * D, *DK = dk + (size_t)bh * S * D, *DV = dv + (size_t)bh * S * D;
        for (int i = 0; i < T; i++) { float a = 0; for (int c = 0; c < D; c++) a += G[i * D + c] * O[i * D + c]; Dv[i] = a; }
        memset(DQ, 0, sizeof(float) * T * D);
        memset(DK, 0, sizeof(float) * S * D);
        memset(DV, 0, sizeof(float) * S * D);
        for (int kt = 0; kt < S; kt += BK) {
            int nk = S - kt < BK ? S - kt : BK;
            for (int qt = 0; qt < T; qt += BQ) {
                int nq = T - qt < BQ ? T - qt : BQ;
                if (causal && kt > qt + nq - 1 + off) continue;   /* whole tile in the future */
                for (int r = 0; r < nq; r++) for (int t = 0; t < nk; t++) {
                    int i = qt + r, j = kt + t;
                    if (causal && j > i + off) { Pt[r][t] = 0; dSt[r][t] = 0; continue; }
                    float s = 0, dp = 0;
                    for (int c = 0; c < D; c++) { s += Q[i * D + c] * K[j * D + c]; dp += G[i * D + c] * V[j * D + c]; }
                    Pt[r][t] = expf(s * scale - L[i]);
                    dSt[r][t] = Pt[r][t] * (dp - Dv[i]);
                }
                for (int t = 0; t < nk; t++) for (int c = 0; c < D; c++) {
                    float av = 0, ak = 0;
                    for (int r = 0; r < nq; r++) { av += Pt[r][t] * G[(qt + r) * D + c]; ak += dSt[r][t] * Q[(qt + r) * D + c]; }
                    DV[(kt + t) * D + c] += av; DK[(kt + t) * D + c] += scale * ak;
                }
                for (int r = 0; r < nq; r++) for (int c = 0; c < D; c++) {
                    float a = 0;
                    for (int t = 0; t < nk; t++) a += dSt[r][t] * K[(kt + t) * D + c];
                    DQ[(qt + r) * D + c] += a;
                }
            }
        }
    }
    free(Dv);
}
