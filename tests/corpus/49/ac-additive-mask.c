/* expect: AC */
/* Builds an explicit [T,T] additive mask (0 or -INFINITY) per batch, full score matrix S = QK^T/sqrt(D) + M, row softmax, P.V. */
#include <math.h>
#include <stdlib.h>

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    int D = d / n_heads;
    float scale = 1.0f / sqrtf((float)D);
    float *Q = malloc(sizeof(float) * T * d), *K = malloc(sizeof(float) * T * d);
    float *V = malloc(sizeof(float) * T * d), *Y = malloc(sizeof(float) * T * d);
    float *M = malloc(sizeof(float) * T * T), *S = malloc(sizeof(float) * T * T);

    for (int b = 0; b < B; b++) {
        const float *X = x + (size_t)b * T * d;
        for (int t = 0; t < T; t++)
            for (int j = 0; j < d; j++) {
                float q = 0, k = 0, v = 0;
                for (int i = 0; i < d; i++) {
                    q += X[t * d + i] * wq[i * d + j];
                    k += X[t * d + i] * wk[i * d + j];
                    v += X[t * d + i] * wv[i * d + j];
                }
                Q[t * d + j] = q; K[t * d + j] = k; V[t * d + j] = v;
            }

        for (int i = 0; i < T; i++)
            for (int j = 0; j < T; j++) {
                int blocked = (causal && j > i) || (mask && !mask[b * T + j]);
                M[i * T + j] = blocked ? -INFINITY : 0.0f;
            }

        for (int h = 0; h < n_heads; h++) {
            for (int i = 0; i < T; i++)
                for (int j = 0; j < T; j++) {
                    float s = 0;
                    for (int e = 0; e < D; e++) s += Q[i * d + h * D + e] * K[j * d + h * D + e];
                    S[i * T + j] = s * scale + M[i * T + j];
                }
            for (int i = 0; i < T; i++) {
                float *row = S + i * T, mx = -INFINITY, sum = 0;
                for (int j = 0; j < T; j++) if (row[j] > mx) mx = row[j];
                if (mx == -INFINITY) {                  /* whole row masked */
                    for (int j = 0; j < T; j++) row[j] = 0;
                    continue;
                }
                for (int j = 0; j < T; j++) { row[j] = expf(row[j] - mx); sum += row[j]; }
                for (int j = 0; j < T; j++) row[j] /= sum;
            }
            for (int i = 0; i < T; i++)
                for (int e = 0; e < D; e++) {
                    float a = 0;
                    for (int j = 0; j < T; j++) a += S[i * T + j] * V[j * d + h * D + e];
                    Y[i * d + h * D + e] = a;
                }
        }

        for (int t = 0; t < T; t++)
            for (int c = 0; c < d; c++) {
                float a = 0;
                for (int m = 0; m < d; m++) a += Y[t * d + m] * wo[m * d + c];
                out[((size_t)b * T + t) * d + c] = a;
            }
    }
    free(Q); free(K); free(V); free(Y); free(M); free(S);
}
