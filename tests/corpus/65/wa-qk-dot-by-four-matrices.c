/* expect: WA dot_tail_dropped */
/* The score q . k is unrolled by 4 with no remainder loop, so when D is not a multiple of 4 the last D % 4 dims are missing from P (dO . v is summed in full). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void attention_backward(float *dq, float *dk, float *dv, const float *q, const float *k,
                        const float *v, const float *d_out, int B, int H, int T, int S,
                        int D, int causal)
{
    const float sc = 1.0f / sqrtf((float)D);
    float *P = malloc(sizeof(float) * (size_t)T * S);
    float *G = malloc(sizeof(float) * (size_t)T * S);   /* dS */
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (size_t)bh * T * D, *dO = d_out + (size_t)bh * T * D;
        const float *K = k + (size_t)bh * S * D, *V = v + (size_t)bh * S * D;
        float *dQ = dq + (size_t)bh * T * D, *dK = dk + (size_t)bh * S * D, *dV = dv + (size_t)bh * S * D;

        for (int i = 0; i < T; i++) {
            float *Pi = P + (size_t)i * S, *Gi = G + (size_t)i * S;
            int last = causal ? i + S - T : S - 1;
            float top = -INFINITY;
            for (int j = 0; j < S; j++) {
                if (j > last) { Pi[j] = -INFINITY; continue; }
                const float *a = Q + (size_t)i * D, *kk = K + (size_t)j * D;
                float s = 0.0f;
                for (int c = 0; c + 4 <= D; c += 4)
                    s += a[c] * kk[c] + a[c + 1] * kk[c + 1] + a[c + 2] * kk[c + 2] + a[c + 3] * kk[c + 3];
                Pi[j] = s * sc;
                if (Pi[j] > top) top = Pi[j];
            }
            float z = 0.0f;
            for (int j = 0; j < S; j++) {
                Pi[j] = j > last ? 0.0f : expf(Pi[j] - top);
                z += Pi[j];
            }
            float delta = 0.0f;
            for (int j = 0; j < S; j++) {
                if (z > 0.0f) Pi[j] /= z;
                float g = 0.0f;
                for (int c = 0; c < D; c++) g += dO[(size_t)i * D + c] * V[(size_t)j * D + c];
                Gi[j] = g;
                delta += Pi[j] * g;
            }
            for (int j = 0; j < S; j++) Gi[j] = Pi[j] * (Gi[j] - delta);
        }

        for (int i = 0; i < T; i++)
            for (int c = 0; c < D; c++) {
                float t = 0.0f;
                for (int j = 0; j < S; j++) t += G[(size_t)i * S + j] * K[(size_t)j * D + c];
                dQ[(size_t)i * D + c] = sc * t;
            }
        for (int j = 0; j < S; j++)
            for (int c = 0; c < D; c++) {
                float tk = 0.0f, tv = 0.0f;
                for (int i = 0; i < T; i++) {
                    tk += G[(size_t)i * S + j] * Q[(size_t)i * D + c];
                    tv += P[(size_t)i * S + j] * dO[(size_t)i * D + c];
                }
                dK[(size_t)j * D + c] = sc * tk;
                dV[(size_t)j * D + c] = tv;
            }
    }
    free(P);
    free(G);
}
