/* expect: WA scale_by_d */
/* The scale is taken as 1/D (one constant used in the scores and in the
 * chain rule for dQ and dK). Two passes per head: P and dS as [T, S]
 * matrices first, then the gradients as small matrix products. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void attention_backward(float *dq, float *dk, float *dv, const float *q, const float *k,
                        const float *v, const float *d_out, int B, int H, int T, int S,
                        int D, int causal)
{
    const float sc = 1.0f / (float)D;   /* should be 1/sqrt(D) */
    float *P = malloc(sizeof(float) * (size_t)T * S * 2), *dS = P + (size_t)T * S;
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (size_t)bh * T * D, *K = k + (size_t)bh * S * D;
        const float *V = v + (size_t)bh * S * D, *G = d_out + (size_t)bh * T * D;
        for (int i = 0; i < T; i++) {
            int last = causal ? i + S - T : S - 1;
            float mx = -INFINITY, z = 0.0f, delta = 0.0f;
            for (int j = 0; j < S; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += Q[i * D + c] * K[j * D + c];
                P[i * S + j] = j <= last ? s * sc : -INFINITY;
                if (P[i * S + j] > mx) mx = P[i * S + j];
            }
            for (int j = 0; j < S; j++) {
                P[i * S + j] = mx == -INFINITY || j > last ? 0.0f : expf(P[i * S + j] - mx);
                z += P[i * S + j];
            }
            for (int j = 0; j < S; j++) {
                float g = 0.0f;
                for (int c = 0; c < D; c++) g += G[i * D + c] * V[j * D + c];
                P[i * S + j] = z > 0.0f ? P[i * S + j] / z : 0.0f;
                dS[i * S + j] = g;
                delta += P[i * S + j] * g;
            }
            for (int j = 0; j < S; j++) dS[i * S + j] = P[i * S + j] * (dS[i * S + j] - delta);
        }
        float *dQ = dq + (size_t)bh * T * D, *dK = dk + (size_t)bh * S * D, *dV = dv + (size_t)bh * S * D;
        for (int i = 0; i < T; i++)
            for (int c = 0; c < D; c++) {
                float a = 0.0f;
                for (int j = 0; j < S; j++) a += dS[i * S + j] * K[j * D + c];
                dQ[i * D + c] = sc * a;
            }
        for (int j = 0; j < S; j++)
            for (int c = 0; c < D; c++) {
                float a = 0.0f, b = 0.0f;
                for (int i = 0; i < T; i++) {
                    a += dS[i * S + j] * Q[i * D + c];
                    b += P[i * S + j] * G[i * D + c];
                }
                dK[j * D + c] = sc * a;
                dV[j * D + c] = b;
            }
    }
    free(P);
}
