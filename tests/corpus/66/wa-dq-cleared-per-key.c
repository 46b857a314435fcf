/* expect: WA dq_cleared_per_key_tile */
/* The loop clearing dQ sits inside the key loop, so every key wipes the dQ accumulated from the previous keys. */
#include <math.h>
#include <stdlib.h>

void flash_attention_backward(float *dq, float *dk, float *dv, const float *q,
                              const float *k, const float *v, const float *out,
                              const float *lse, const float *d_out, int B, int H, int T,
                              int S, int D, int causal)
{
    double scale = 1.0 / sqrt((double)D);
    double *delta = malloc(sizeof(double) * T);
    double gk[64], gv[64];

    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            long hq = (long)(b * H + h) * T, hk = (long)(b * H + h) * S;

            /* D_i = dO_i . out_i */
            for (int i = 0; i < T; i++) {
                double s = 0.0;
                for (int c = 0; c < D; c++) s += (double)d_out[(hq + i) * D + c] * out[(hq + i) * D + c];
                delta[i] = s;
            }

            /* keys outer, queries inner; one key at a time */
            for (int j = 0; j < S; j++) {
                const float *kj = k + (hk + j) * D, *vj = v + (hk + j) * D;
                for (int c = 0; c < D; c++) gk[c] = gv[c] = 0.0;
                for (long x = hq * D; x < (hq + T) * D; x++) dq[x] = 0.0f;
                int i_start = 0;
                if (causal && j - (S - T) > 0) i_start = j - (S - T);
                for (int i = i_start; i < T; i++) {
                    const float *qi = q + (hq + i) * D, *gi = d_out + (hq + i) * D;
                    double s = 0.0, dp = 0.0;
                    for (int c = 0; c < D; c++) {
                        s += (double)qi[c] * kj[c];
                        dp += (double)gi[c] * vj[c];
                    }
                    double p = exp(s * scale - lse[hq + i]);
                    double ds = p * (dp - delta[i]) * scale;
                    for (int c = 0; c < D; c++) {
                        gv[c] += p * gi[c];
                        gk[c] += ds * qi[c];
                        dq[(hq + i) * D + c] += (float)(ds * kj[c]);
                    }
                }
                for (int c = 0; c < D; c++) {
                    dk[(hk + j) * D + c] = (float)gk[c];
                    dv[(hk + j) * D + c] = (float)gv[c];
                }
            }
        }
    free(delta);
}
