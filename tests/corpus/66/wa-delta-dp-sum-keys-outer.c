/* expect: WA delta_from_dp */
/* Keys outer in double; D_i summed from dO_i . v_j over the keys it sees, without the weights P. */
#include <math.h>
#include <stdlib.h>

void flash_attention_backward(float *dq, float *dk, float *dv, const float *q,
                              const float *k, const float *v, const float *out,
                              const float *lse, const float *d_out, int B, int H, int T,
                              int S, int D, int causal)
{
    (void)out;
    double *Dv = malloc(sizeof(double) * T);
    double scale = 1.0 / sqrt((double)D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (size_t)bh * T * D, *K = k + (size_t)bh * S * D, *V = v + (size_t)bh * S * D;
        const float *G = d_out + (size_t)bh * T * D, *L = lse + (size_t)bh * T;
        float *dQ = dq + (size_t)bh * T * D;
        for (int i = 0; i < T; i++) {
            Dv[i] = 0.0;
            for (int j = 0; j < S && (!causal || j <= i + S - T); j++)
                for (int c = 0; c < D; c++) Dv[i] += (double)G[i * D + c] * V[j * D + c];
        }
        for (int e = 0; e < T * D; e++) dQ[e] = 0.0f;
        for (int j = 0; j < S; j++) {
            double ak[D], av[D];
            for (int c = 0; c < D; c++) ak[c] = av[c] = 0.0;
            int i_first = causal ? j - (S - T) : 0;
            for (int i = i_first < 0 ? 0 : i_first; i < T; i++) {
                double s = 0.0, dp = 0.0;
                for (int c = 0; c < D; c++) {
                    s += (double)Q[i * D + c] * K[j * D + c];
                    dp += (double)G[i * D + c] * V[j * D + c];
                }
                double p = exp(s * scale - L[i]), ds = p * (dp - Dv[i]);
                for (int c = 0; c < D; c++) {
                    av[c] += p * G[i * D + c];
                    ak[c] += ds * Q[i * D + c];
                    dQ[i * D + c] += (float)(scale * ds * K[j * D + c]);
                }
            }
            for (int c = 0; c < D; c++) {
                dk[((size_t)bh * S + j) * D + c] = (float)(scale * ak[c]);
                dv[((size_t)bh * S + j) * D + c] = (float)av[c];
            }
        }
    }
    free(Dv);
}
