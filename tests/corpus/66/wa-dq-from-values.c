/* expect: WA dq_uses_value */
/* dQ accumulates dS times the value rows, not the key rows. */
#include <math.h>
#include <stdlib.h>

void flash_attention_backward(float *dq, float *dk, float *dv, const float *q,
                              const float *k, const float *v, const float *out,
                              const float *lse, const float *d_out, int B, int H, int T,
                              int S, int D, int causal)
{
    double scale = 1.0 / sqrt((double)D);
    double *acc = malloc(sizeof(double) * D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (size_t)bh * T * D, *K = k + (size_t)bh * S * D, *V = v + (size_t)bh * S * D;
        const float *O = out + (size_t)bh * T * D, *G = d_out + (size_t)bh * T * D, *L = lse + (size_t)bh * T;
        float *dQ = dq + (size_t)bh * T * D, *dK = dk + (size_t)bh * S * D, *dV = dv + (size_t)bh * S * D;
        for (int e = 0; e < S * D; e++) { dK[e] = 0.0f; dV[e] = 0.0f; }
        for (int i = 0; i < T; i++) {
            double Di = 0.0;
            for (int c = 0; c < D; c++) { Di += (double)G[i * D + c] * O[i * D + c]; acc[c] = 0.0; }
            int last = causal ? i + S - T : S - 1;
            for (int j = 0; j <= last; j++) {
                double s = 0.0, dp = 0.0;
                for (int c = 0; c < D; c++) {
                    s += (double)Q[i * D + c] * K[j * D + c];
                    dp += (double)G[i * D + c] * V[j * D + c];
                }
                double p = exp(scale * s - L[i]);
                double ds = scale * p * (dp - Di);
                for (int c = 0; c < D; c++) {
                    dV[j * D + c] += (float)(p * G[i * D + c]);
                    dK[j * D + c] += (float)(ds * Q[i * D + c]);
                    acc[c] += ds * V[j * D + c];
                }
            }
            for (int c = 0; c < D; c++) dQ[i * D + c] = (float)acc[c];
        }
    }
    free(acc);
}
