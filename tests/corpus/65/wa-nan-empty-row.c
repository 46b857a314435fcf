/* expect: WA nan_empty_row */
/* empty row -> NaN */
#include <math.h>
#include <stdlib.h>
/* per head: P, dP, dS as whole T x S float matrices, then matrix products */
void attention_backward(float *dq, float *dk, float *dv, const float *q, const float *k,
                        const float *v, const float *d_out, int B, int H, int T, int S,
                        int D, int causal)
{
    float sc = 1.0f / sqrtf((float)D);
    float *P = malloc(sizeof(float) * T * S), *dP = malloc(sizeof(float) * T * S), *dS = malloc(sizeof(float) * T * S);
    for (int b = 0; b < B; b++) for (int h = 0; h < H; h++) {
        size_t oq = ((size_t)b * H + h) * T * D, ok = ((size_t)b * H + h) * S * D;
        const float *Q = q + oq, *K = k + ok, *V = v + ok, *G = d_out + oq;
        float *DQ = dq + oq, *DK = dk + ok, *DV = dv + ok;
        for (int i = 0; i < T; i++) {
            float mx = -INFINITY;
            for (int j = 0; j < S; j++) {
                int vis = !causal || j <= i + S - T;
                if (!vis) { P[i * S + j] = -INFINITY; continue; }
                float s = 0; for (int c = 0; c < D; c++) s += Q[i * D + c] * K[j * D + c];
                P[i * S + j] = s * sc; if (P[i * S + j] > mx) mx = P[i * S + j];
            }
            float sum = 0;
            for (int j = 0; j < S; j++) { P[i * S + j] = expf(P[i * S + j] - mx); sum += P[i * S + j]; }
            for (int j = 0; j < S; j++) P[i * S + j] /= sum;
        }
        for (int i = 0; i < T; i++) for (int j = 0; j < S; j++) {
            float s = 0; for (int c = 0; c < D; c++) s += G[i * D + c] * V[j * D + c];
            dP[i * S + j] = s;
        }
        for (int i = 0; i < T; i++) {
            float delta = 0; for (int j = 0; j < S; j++) delta += P[i * S + j] * dP[i * S + j];
            for (int j = 0; j < S; j++) dS[i * S + j] = P[i * S + j] * (dP[i * S + j] - delta);
        }
        for (int i = 0; i < T; i++) for (int c = 0; c < D; c++) {
            float a = 0; for (int j = 0; j < S; j++) a += dS[i * S + j] * K[j * D + c];
            DQ[i * D + c] = sc * a;
        }
        for (int j = 0; j < S; j++) for (int c = 0; c < D; c++) {
            float a = 0, g = 0;
            for (int i = 0; i < T; i++) { a += dS[i * S + j] * Q[i * D + c]; g += P[i * S + j] * G[i * D + c]; }
            DK[j * D + c] = sc * a; DV[j * D + c] = g;
        }
    }
    free(P); free(dP); free(dS);
}
