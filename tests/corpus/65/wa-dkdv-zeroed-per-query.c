/* expect: WA dk_dv_reset_per_query */
/* 反向传播：按行重算 P，dS = P ∘ (dP − δ)，再分给 dQ、dK、dV。
 * 每处理一个查询行，先把这个头的梯度缓冲清零。 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void attention_backward(float *dq, float *dk, float *dv, const float *q, const float *k,
                        const float *v, const float *d_out, int B, int H, int T, int S,
                        int D, int causal)
{
    const float sc = 1.0f / sqrtf((float)D);
    float *P = malloc(sizeof(float) * S), *dP = malloc(sizeof(float) * S);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            size_t hq = ((size_t)b * H + h) * T * D, hk = ((size_t)b * H + h) * S * D;
            for (int i = 0; i < T; i++) {
                memset(dk + hk, 0, sizeof(float) * S * D);
                memset(dv + hk, 0, sizeof(float) * S * D);
                memset(dq + hq + (size_t)i * D, 0, sizeof(float) * D);
                int n = causal ? i + S - T + 1 : S;
                if (n > S) n = S;
                if (n <= 0) continue;
                float m = -INFINITY, z = 0.0f, delta = 0.0f;
                for (int j = 0; j < n; j++) {
                    float s = 0.0f, g = 0.0f;
                    for (int c = 0; c < D; c++) {
                        s += q[hq + (size_t)i * D + c] * k[hk + (size_t)j * D + c];
                        g += d_out[hq + (size_t)i * D + c] * v[hk + (size_t)j * D + c];
                    }
                    P[j] = s * sc;
                    dP[j] = g;
                    m = fmaxf(m, P[j]);
                }
                for (int j = 0; j < n; j++) z += P[j] = expf(P[j] - m);
                for (int j = 0; j < n; j++) {
                    P[j] /= z;
                    delta += P[j] * dP[j];
                }
                for (int j = 0; j < n; j++) {
                    float dS = P[j] * (dP[j] - delta);
                    for (int c = 0; c < D; c++) {
                        dq[hq + (size_t)i * D + c] += sc * dS * k[hk + (size_t)j * D + c];
                        dk[hk + (size_t)j * D + c] += sc * dS * q[hq + (size_t)i * D + c];
                        dv[hk + (size_t)j * D + c] += P[j] * d_out[hq + (size_t)i * D + c];
                    }
                }
            }
        }
    free(P);
    free(dP);
}
