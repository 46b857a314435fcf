/* expect: WA delta_from_do_do */
/* 32 x 32 tiles; the row term of each query tile from dO o dO. */
#include <math.h>

#define BT 32
static float P[BT][BT], dS[BT][BT], Drow[BT];

void flash_attention_backward(float *dq, float *dk, float *dv, const float *q,
                              const float *k, const float *v, const float *out,
                              const float *lse, const float *d_out, int B, int H, int T,
                              int S, int D, int causal)
{
    float sc = 1.0f / sqrtf((float)D);
    int off = S - T;
    for (long e = 0; e < (long)B * H * T * D; e++) dq[e] = 0.0f;
    for (long e = 0; e < (long)B * H * S * D; e++) dk[e] = dv[e] = 0.0f;
    for (int bh = 0; bh < B * H; bh++) {
        (void)out;
        const float *Q = q + (long)bh * T * D, *K = k + (long)bh * S * D, *V = v + (long)bh * S * D;
        const float *G = d_out + (long)bh * T * D, *L = lse + (long)bh * T;
        float *dQ = dq + (long)bh * T * D, *dK = dk + (long)bh * S * D, *dV = dv + (long)bh * S * D;
        for (int i0 = 0; i0 < T; i0 += BT) {
            int ni = T - i0 < BT ? T - i0 : BT;
            for (int r = 0; r < ni; r++) {
                Drow[r] = 0.0f;
                for (int c = 0; c < D; c++) Drow[r] += G[(i0 + r) * D + c] * G[(i0 + r) * D + c];
            }
            for (int j0 = 0; j0 < S; j0 += BT) {
                if (causal && j0 > i0 + ni - 1 + off) break;   /* every later tile is in the future */
                int nj = S - j0 < BT ? S - j0 : BT;
                for (int r = 0; r < ni; r++)
                    for (int t = 0; t < nj; t++) {
                        int i = i0 + r, j = j0 + t;
                        if (causal && j > i + off) { P[r][t] = dS[r][t] = 0.0f; continue; }
                        float s = 0.0f, dp = 0.0f;
                        for (int c = 0; c < D; c++) {
                            s += Q[i * D + c] * K[j * D + c];
                            dp += G[i * D + c] * V[j * D + c];
                        }
                        P[r][t] = expf(sc * s - L[i]);
                        dS[r][t] = P[r][t] * (dp - Drow[r]);
                    }
                for (int t = 0; t < nj; t++)
                    for (int c = 0; c < D; c++) {
                        float a = 0.0f, b = 0.0f;
                        for (int r = 0; r < ni; r++) {
                            a += dS[r][t] * Q[(i0 + r) * D + c];
                            b += P[r][t] * G[(i0 + r) * D + c];
                        }
                        dK[(j0 + t) * D + c] += sc * a;
                        dV[(j0 + t) * D + c] += b;
                    }
                for (int r = 0; r < ni; r++)
                    for (int c = 0; c < D; c++) {
                        float a = 0.0f;
                        for (int t = 0; t < nj; t++) a += dS[r][t] * K[(j0 + t) * D + c];
                        dQ[(i0 + r) * D + c] += sc * a;
                    }
            }
        }
    }
}
