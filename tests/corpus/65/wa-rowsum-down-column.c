/* expect: WA rowsum_down_column */
/* The Jacobian term is summed down the column (delta_j = sum_i P_ij dP_ij over queries) instead of along the query's row. */
#include <math.h>
#include <stdlib.h>

void attention_backward(float *dq, float *dk, float *dv, const float *q, const float *k,
                        const float *v, const float *d_out, int B, int H, int T, int S,
                        int D, int causal)
{
    float scale = 1.0f / sqrtf((float)D);
    float *P = malloc(sizeof(float) * T * S);
    float *dP = malloc(sizeof(float) * T * S);
    float *delta = malloc(sizeof(float) * S);

    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (long)bh * T * D, *K = k + (long)bh * S * D, *V = v + (long)bh * S * D;
        const float *dO = d_out + (long)bh * T * D;
        float *dQ = dq + (long)bh * T * D, *dK = dk + (long)bh * S * D, *dV = dv + (long)bh * S * D;

        for (int i = 0; i < T; i++) {
            float mx = -1e30f;
            for (int j = 0; j < S; j++) {
                float s = 0;
                for (int c = 0; c < D; c++) s += Q[i * D + c] * K[j * D + c];
                s *= scale;
                P[i * S + j] = s;
                if (!(causal && j > i + S - T) && s > mx) mx = s;
            }
            float sum = 0;
            for (int j = 0; j < S; j++) {
                if (causal && j > i + S - T) P[i * S + j] = 0;
                else P[i * S + j] = expf(P[i * S + j] - mx);
                sum += P[i * S + j];
            }
            for (int j = 0; j < S; j++) P[i * S + j] = sum > 0 ? P[i * S + j] / sum : 0;
        }

        for (int i = 0; i < T; i++)
            for (int j = 0; j < S; j++) {
                float t = 0;
                for (int c = 0; c < D; c++) t += dO[i * D + c] * V[j * D + c];
                dP[i * S + j] = t;
            }

        /* delta = sum of P * dP */
        for (int j = 0; j < S; j++) {
            delta[j] = 0;
            for (int i = 0; i < T; i++) delta[j] += P[i * S + j] * dP[i * S + j];
        }
        /* dS overwrites dP */
        for (int i = 0; i < T; i++)
            for (int j = 0; j < S; j++)
                dP[i * S + j] = P[i * S + j] * (dP[i * S + j] - delta[j]);

        for (int i = 0; i < T; i++)
            for (int c = 0; c < D; c++) {
                float a = 0;
                for (int j = 0; j < S; j++) a += dP[i * S + j] * K[j * D + c];
                dQ[i * D + c] = scale * a;
            }
        for (int j = 0; j < S; j++)
            for (int c = 0; c < D; c++) {
                float a = 0, b2 = 0;
                for (int i = 0; i < T; i++) {
                    a += dP[i * S + j] * Q[i * D + c];
                    b2 += P[i * S + j] * dO[i * D + c];
                }
                dK[j * D + c] = scale * a;
                dV[j * D + c] = b2;
            }
    }
    free(P);
    free(dP);
    free(delta);
}
