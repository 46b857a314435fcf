/* expect: WA ds_sign_flipped */
/* Tiled backward with the saved lse; dS written as P (delta - dP), so dQ and dK come out negated. */
#include <math.h>
#include <stdlib.h>

enum { BR = 16, BC = 32 };

void flash_attention_backward(float *dq, float *dk, float *dv, const float *q,
                              const float *k, const float *v, const float *out,
                              const float *lse, const float *d_out, int B, int H, int T,
                              int S, int D, int causal)
{
    float p[BR][BC];
    float *delta = malloc(sizeof(float) * T);
    float scale = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *qb = q + (long)bh * T * D, *kb = k + (long)bh * S * D;
        const float *vb = v + (long)bh * S * D, *ob = out + (long)bh * T * D;
        const float *gb = d_out + (long)bh * T * D, *lb = lse + (long)bh * T;
        float *dqb = dq + (long)bh * T * D, *dkb = dk + (long)bh * S * D, *dvb = dv + (long)bh * S * D;
        for (int i = 0; i < T; i++) {
            delta[i] = 0.0f;
            for (int c = 0; c < D; c++) delta[i] += gb[i * D + c] * ob[i * D + c];
        }
        for (long e = 0; e < (long)T * D; e++) dqb[e] = 0.0f;
        for (long e = 0; e < (long)S * D; e++) dkb[e] = dvb[e] = 0.0f;
        for (int j0 = 0; j0 < S; j0 += BC) {
            int nc = S - j0 < BC ? S - j0 : BC;
            /* The first query that sees key j0 sits at i = j0 - (S - T). */
            int first = causal ? j0 - (S - T) : 0;
            for (int i0 = first > 0 ? first / BR * BR : 0; i0 < T; i0 += BR) {
                int nr = T - i0 < BR ? T - i0 : BR;
                for (int r = 0; r < nr; r++)
                    for (int t = 0; t < nc; t++) {
                        int i = i0 + r, j = j0 + t;
                        float s = 0.0f;
                        if (causal && j > i + S - T) {
                            p[r][t] = 0.0f;
                            continue;
                        }
                        for (int c = 0; c < D; c++) s += qb[i * D + c] * kb[j * D + c];
                        p[r][t] = expf(scale * s - lb[i]);
                    }
                for (int r = 0; r < nr; r++)
                    for (int t = 0; t < nc; t++) {
                        int i = i0 + r, j = j0 + t;
                        if (p[r][t] == 0.0f) continue;
                        float dp = 0.0f;
                        for (int c = 0; c < D; c++) dp += gb[i * D + c] * vb[j * D + c];
                        float ds = scale * p[r][t] * (delta[i] - dp);   /* 梯度：delta 减 dP */
                        for (int c = 0; c < D; c++) {
                            dvb[j * D + c] += p[r][t] * gb[i * D + c];
                            dkb[j * D + c] += ds * qb[i * D + c];
                            dqb[i * D + c] += ds * kb[j * D + c];
                        }
                    }
            }
        }
    }
    free(delta);
}
