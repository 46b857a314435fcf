/* expect: WA dk_ds_not_transposed */
/* Float, a [T][S] buffer of dS per head; dK's loop indexes it ds[j*T + i], the transpose of a square buffer. */
#include <math.h>
#include <stdlib.h>

void attention_backward(float *dq, float *dk, float *dv, const float *q, const float *k,
                        const float *v, const float *d_out, int B, int H, int T, int S,
                        int D, int causal)
{
    float *p = calloc((size_t)T * S, sizeof(float)), *ds = calloc((size_t)T * S, sizeof(float));
    float sc = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + bh * T * D, *K = k + bh * S * D, *V = v + bh * S * D, *G = d_out + bh * T * D;
        float *dQ = dq + bh * T * D, *dK = dk + bh * S * D, *dV = dv + bh * S * D;
        for (int i = 0; i < T; i++) {
            int last = causal ? i + S - T : S - 1;
            float m = -INFINITY, l = 0.0f, r = 0.0f;
            for (int j = 0; j < S; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += Q[i * D + c] * K[j * D + c];
                p[i * S + j] = j <= last ? s * sc : -INFINITY;
                if (p[i * S + j] > m) m = p[i * S + j];
            }
            for (int j = 0; j < S; j++) {
                p[i * S + j] = j <= last ? expf(p[i * S + j] - m) : 0.0f;
                l += p[i * S + j];
            }
            for (int j = 0; j < S; j++) {
                float dp = 0.0f;
                for (int c = 0; c < D; c++) dp += G[i * D + c] * V[j * D + c];
                if (l > 0.0f) p[i * S + j] /= l;
                ds[i * S + j] = dp;
                r += p[i * S + j] * dp;
            }
            for (int j = 0; j < S; j++) ds[i * S + j] = p[i * S + j] * (ds[i * S + j] - r);
        }
        for (int i = 0; i < T * D; i++) dQ[i] = 0.0f;
        for (int i = 0; i < S * D; i++) dK[i] = dV[i] = 0.0f;
        for (int i = 0; i < T; i++)
            for (int j = 0; j < S; j++)
                for (int c = 0; c < D; c++) {
                    dQ[i * D + c] += sc * ds[i * S + j] * K[j * D + c];
                    dK[j * D + c] += sc * ds[j * T + i] * Q[i * D + c];
                    dV[j * D + c] += p[i * S + j] * G[i * D + c];
                }
    }
    free(p);
    free(ds);
}
