/* expect: WA dv_from_unnormalised_p */
/* dV accumulated from exp(s - max) before P is divided by the row's sum. */
#include <math.h>
#include <stdlib.h>

#define MAXS 1024

void attention_backward(float *dq, float *dk, float *dv, const float *q, const float *k,
                        const float *v, const float *d_out, int B, int H, int T, int S,
                        int D, int causal)
{
    float e[MAXS], g[MAXS];
    const float sc = 1.0f / sqrtf((float)D);
    for (size_t i = 0; i < (size_t)B * H * S * D; i++) { dk[i] = 0.0f; dv[i] = 0.0f; }
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (size_t)bh * T * D, *K = k + (size_t)bh * S * D;
        const float *V = v + (size_t)bh * S * D, *dO = d_out + (size_t)bh * T * D;
        float *dQ = dq + (size_t)bh * T * D, *dK = dk + (size_t)bh * S * D, *dV = dv + (size_t)bh * S * D;
        for (int i = 0; i < T; i++) {
            int hi = causal ? i + S - T : S - 1;
            if (hi >= S) hi = S - 1;
            for (int c = 0; c < D; c++) dQ[i * D + c] = 0.0f;
            if (hi < 0) continue;
            float m = -INFINITY;
            for (int j = 0; j <= hi; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += Q[i * D + c] * K[j * D + c];
                e[j] = s * sc;
                if (e[j] > m) m = e[j];
            }
            float z = 0.0f;
            for (int j = 0; j <= hi; j++) {
                e[j] = expf(e[j] - m);
                z += e[j];
                /* 顺手把 dV = P^T dO 加上 */
                for (int c = 0; c < D; c++) dV[j * D + c] += e[j] * dO[i * D + c];
            }
            float delta = 0.0f;
            for (int j = 0; j <= hi; j++) {
                e[j] /= z;
                float t = 0.0f;
                for (int c = 0; c < D; c++) t += dO[i * D + c] * V[j * D + c];
                g[j] = t;
                delta += e[j] * t;
            }
            for (int j = 0; j <= hi; j++) {
                float ds = e[j] * (g[j] - delta) * sc;
                for (int c = 0; c < D; c++) {
                    dQ[i * D + c] += ds * K[j * D + c];
                    dK[j * D + c] += ds * Q[i * D + c];
                }
            }
        }
    }
}
