/* expect: WA dq_uses_value */
/* Backward in matrix form, one (b, h) at a time, with whole T x S buffers:
 * P, then dP = dO V^T, dS = P o (dP - rowsum(P o dP)), and the three
 * products. dQ = dS . V here: the gradient taken along the vectors dP was
 * read from. */
#include <math.h>
#include <stdlib.h>

static void row_softmax(float *p, int n)
{
    float m = -INFINITY, z = 0.0f;
    for (int j = 0; j < n; j++) m = p[j] > m ? p[j] : m;
    for (int j = 0; j < n; j++) z += p[j] = expf(p[j] - m);
    for (int j = 0; j < n; j++) p[j] /= z;
}

void attention_backward(float *dq, float *dk, float *dv, const float *q, const float *k,
                        const float *v, const float *d_out, int B, int H, int T, int S,
                        int D, int causal)
{
    float *P = malloc(sizeof(float) * (size_t)T * S), *dS = malloc(sizeof(float) * (size_t)T * S);
    const float r = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (size_t)bh * T * D, *O = d_out + (size_t)bh * T * D;
        const float *K = k + (size_t)bh * S * D, *V = v + (size_t)bh * S * D;
        float *gQ = dq + (size_t)bh * T * D, *gK = dk + (size_t)bh * S * D, *gV = dv + (size_t)bh * S * D;
        for (int i = 0; i < T; i++) {
            int n = causal ? i + S - T + 1 : S;   /* keys 0 .. n-1 */
            if (n > S) n = S;
            if (n < 0) n = 0;
            for (int j = 0; j < S; j++) {
                float s = 0.0f, g = 0.0f;
                for (int c = 0; c < D && j < n; c++) {
                    s += Q[i * D + c] * K[j * D + c];
                    g += O[i * D + c] * V[j * D + c];
                }
                P[i * S + j] = s * r;
                dS[i * S + j] = g;
            }
            if (n > 0) row_softmax(P + (size_t)i * S, n);
            float delta = 0.0f;
            for (int j = 0; j < S; j++) {
                if (j >= n) P[i * S + j] = 0.0f;
                delta += P[i * S + j] * dS[i * S + j];
            }
            for (int j = 0; j < S; j++) dS[i * S + j] = P[i * S + j] * (dS[i * S + j] - delta);
        }
        for (int i = 0; i < T; i++)
            for (int c = 0; c < D; c++) {
                float a = 0.0f;
                for (int j = 0; j < S; j++) a += dS[i * S + j] * V[j * D + c];
                gQ[i * D + c] = r * a;
            }
        for (int j = 0; j < S; j++)
            for (int c = 0; c < D; c++) {
                float a = 0.0f, b = 0.0f;
                for (int i = 0; i < T; i++) {
                    a += dS[i * S + j] * Q[i * D + c];
                    b += P[i * S + j] * O[i * D + c];
                }
                gK[j * D + c] = r * a;
                gV[j * D + c] = b;
            }
    }
    free(P);
    free(dS);
}
