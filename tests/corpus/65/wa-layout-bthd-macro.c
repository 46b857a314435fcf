/* expect: WA layout_bthd */
/* The index macros use a [B, T, H, D] layout (row-major over time, then heads), not the [B, H, T, D] the statement gives. */
#include <math.h>
#include <stdlib.h>

#define AT_Q(b, h, i, c) ((((long)(b) * T + (i)) * H + (h)) * D + (c))
#define AT_K(b, h, j, c) ((((long)(b) * S + (j)) * H + (h)) * D + (c))

void attention_backward(float *dq, float *dk, float *dv, const float *q, const float *k,
                        const float *v, const float *d_out, int B, int H, int T, int S,
                        int D, int causal)
{
    double scale = 1.0 / sqrt((double)D);
    double *P = malloc(sizeof(double) * T * S);
    double *dS = malloc(sizeof(double) * T * S);

    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            for (int i = 0; i < T; i++) {
                double m = -INFINITY, z = 0.0, rs = 0.0;
                for (int j = 0; j < S; j++) {
                    P[i * S + j] = 0.0;
                    if (causal && j > i + S - T) continue;
                    double s = 0.0;
                    for (int c = 0; c < D; c++) s += (double)q[AT_Q(b, h, i, c)] * k[AT_K(b, h, j, c)];
                    P[i * S + j] = s * scale;
                    if (s * scale > m) m = s * scale;
                }
                for (int j = 0; j < S; j++) {
                    if (causal && j > i + S - T) continue;
                    P[i * S + j] = exp(P[i * S + j] - m);
                    z += P[i * S + j];
                }
                for (int j = 0; j < S; j++) {
                    if (z > 0.0) P[i * S + j] /= z;
                    double dp = 0.0;
                    for (int c = 0; c < D; c++) dp += (double)d_out[AT_Q(b, h, i, c)] * v[AT_K(b, h, j, c)];
                    dS[i * S + j] = dp;
                    rs += P[i * S + j] * dp;
                }
                for (int j = 0; j < S; j++) dS[i * S + j] = P[i * S + j] * (dS[i * S + j] - rs);
            }
            for (int i = 0; i < T; i++)
                for (int c = 0; c < D; c++) {
                    double a = 0.0;
                    for (int j = 0; j < S; j++) a += dS[i * S + j] * k[AT_K(b, h, j, c)];
                    dq[AT_Q(b, h, i, c)] = (float)(scale * a);
                }
            for (int j = 0; j < S; j++)
                for (int c = 0; c < D; c++) {
                    double a = 0.0, bb = 0.0;
                    for (int i = 0; i < T; i++) {
                        a += dS[i * S + j] * q[AT_Q(b, h, i, c)];
                        bb += P[i * S + j] * d_out[AT_Q(b, h, i, c)];
                    }
                    dk[AT_K(b, h, j, c)] = (float)(scale * a);
                    dv[AT_K(b, h, j, c)] = (float)bb;
                }
        }
    free(P);
    free(dS);
}
