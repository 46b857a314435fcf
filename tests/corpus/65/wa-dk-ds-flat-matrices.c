/* expect: WA dk_ds_not_transposed */
/* Whole matrices in double; dK reads dS as if it were stored [S, T]. */
#include <math.h>
#include <stdlib.h>

void attention_backward(float *dq, float *dk, float *dv, const float *q, const float *k,
                        const float *v, const float *d_out, int B, int H, int T, int S,
                        int D, int causal)
{
    double *P = malloc(sizeof(double) * T * S), *dS = malloc(sizeof(double) * T * S);
    double sc = 1.0 / sqrt((double)D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (size_t)bh * T * D, *K = k + (size_t)bh * S * D;
        const float *V = v + (size_t)bh * S * D, *G = d_out + (size_t)bh * T * D;
        for (int i = 0; i < T; i++) {
            double mx = -INFINITY, sum = 0;
            for (int j = 0; j < S; j++) {
                double s = -INFINITY;
                if (!causal || j <= i + S - T) {
                    s = 0;
                    for (int c = 0; c < D; c++) s += (double)Q[i * D + c] * K[j * D + c];
                    s *= sc;
                }
                P[i * S + j] = s;
                if (s > mx) mx = s;
            }
            for (int j = 0; j < S; j++) {
                P[i * S + j] = mx == -INFINITY ? 0 : exp(P[i * S + j] - mx);
                sum += P[i * S + j];
            }
            double rs = 0;
            for (int j = 0; j < S; j++) {
                if (sum > 0) P[i * S + j] /= sum;
                double dp = 0;
                for (int c = 0; c < D; c++) dp += (double)G[i * D + c] * V[j * D + c];
                dS[i * S + j] = dp;
                rs += P[i * S + j] * dp;
            }
            for (int j = 0; j < S; j++) dS[i * S + j] = P[i * S + j] * (dS[i * S + j] - rs);
        }
        for (int i = 0; i < T; i++)
            for (int c = 0; c < D; c++) {
                double a = 0;
                for (int j = 0; j < S; j++) a += dS[i * S + j] * K[j * D + c];
                dq[(size_t)bh * T * D + i * D + c] = (float)(sc * a);
            }
        for (int j = 0; j < S; j++)
            for (int c = 0; c < D; c++) {
                double a = 0, b = 0;
                for (int i = 0; i < T; i++) {
                    a += dS[j * T + i] * Q[i * D + c];
                    b += P[i * S + j] * G[i * D + c];
                }
                dk[(size_t)bh * S * D + j * D + c] = (float)(sc * a);
                dv[(size_t)bh * S * D + j * D + c] = (float)b;
            }
    }
    free(P);
    free(dS);
}
