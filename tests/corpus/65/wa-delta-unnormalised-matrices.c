/* expect: WA delta_unnormalised */
/* P and dS as matrices; delta summed in the same loop as dP from the exponentials, before they are divided by the row's sum. */
#include <math.h>
#include <stdlib.h>

/* P and dS of one head as [T][S] matrices, then the three products. */
void attention_backward(float *dq, float *dk, float *dv, const float *q, const float *k,
                        const float *v, const float *d_out, int B, int H, int T, int S,
                        int D, int causal)
{
    float *P = malloc(sizeof(float) * (size_t)T * S + 1), *dS = malloc(sizeof(float) * (size_t)T * S + 1);
    const float sc = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (size_t)bh * T * D, *K = k + (size_t)bh * S * D, *V = v + (size_t)bh * S * D;
        const float *G = d_out + (size_t)bh * T * D;
        float *dQ = dq + (size_t)bh * T * D, *dK = dk + (size_t)bh * S * D, *dV = dv + (size_t)bh * S * D;
        for (int i = 0; i < T; i++) {
            float *p = P + (size_t)i * S, *g = dS + (size_t)i * S, mx = -INFINITY, l = 0.0f, dl = 0.0f;
            for (int j = 0; j < S; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += Q[i * D + c] * K[j * D + c];
                p[j] = causal && j > i + S - T ? -INFINITY : s * sc;
                if (p[j] > mx) mx = p[j];
            }
            for (int j = 0; j < S; j++) {
                p[j] = mx == -INFINITY ? 0.0f : expf(p[j] - mx);
                l += p[j];
            }
            for (int j = 0; j < S; j++) {
                float dp = 0.0f;
                for (int c = 0; c < D; c++) dp += G[i * D + c] * V[j * D + c];
                g[j] = dp;
                dl += p[j] * g[j];
                p[j] = l > 0.0f ? p[j] / l : 0.0f;
            }
            for (int j = 0; j < S; j++) g[j] = p[j] * (g[j] - dl);
        }
        for (int i = 0; i < T; i++)
            for (int c = 0; c < D; c++) {
                float a = 0.0f;
                for (int j = 0; j < S; j++) a += dS[(size_t)i * S + j] * K[j * D + c];
                dQ[i * D + c] = sc * a;
            }
        for (int j = 0; j < S; j++)
            for (int c = 0; c < D; c++) {
                float a = 0.0f, b = 0.0f;
                for (int i = 0; i < T; i++) {
                    a += dS[(size_t)i * S + j] * Q[i * D + c];
                    b += P[(size_t)i * S + j] * G[i * D + c];
                }
                dK[j * D + c] = sc * a;
                dV[j * D + c] = b;
            }
    }
    free(P);
    free(dS);
}
