/* expect: WA head_row_stride */
/* a head is viewed as base pointer + h*D but its rows are stepped with stride D instead of d, so the wrong features are read and written. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void mha(float *out, const float *x,
         const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    const int D = d / n_heads;
    const float scale = 1.0f / sqrtf((float)D);
    float *Q = malloc(sizeof(float) * T * d);
    float *K = malloc(sizeof(float) * T * d);
    float *V = malloc(sizeof(float) * T * d);
    float *C = calloc((size_t)T * d, sizeof(float));
    float *S = malloc(sizeof(float) * T * T);

    for (int b = 0; b < B; b++) {
        const float *X = x + (size_t)b * T * d;
        const unsigned char *pad = mask ? mask + (size_t)b * T : NULL;
        for (int t = 0; t < T; t++)
            for (int o = 0; o < d; o++) {
                float a = 0.0f, c = 0.0f, e = 0.0f;
                for (int i = 0; i < d; i++) {
                    a += X[t * d + i] * wq[i * d + o];
                    c += X[t * d + i] * wk[i * d + o];
                    e += X[t * d + i] * wv[i * d + o];
                }
                Q[t * d + o] = a; K[t * d + o] = c; V[t * d + o] = e;
            }

        for (int h = 0; h < n_heads; h++) {
            const float *Qh = Q + h * D, *Kh = K + h * D, *Vh = V + h * D;
            float *Ch = C + h * D;
            for (int i = 0; i < T; i++) {
                float m = -INFINITY;
                for (int j = 0; j < T; j++) {
                    float s = -INFINITY;
                    if (!(causal && j > i) && !(pad && !pad[j])) {
                        s = 0.0f;
                        for (int c = 0; c < D; c++) s += Qh[i * D + c] * Kh[j * D + c];
                        s *= scale;
                    }
                    S[i * T + j] = s;
                    if (s > m) m = s;
                }
                float z = 0.0f;
                for (int j = 0; j < T; j++) {
                    float e = (S[i * T + j] == -INFINITY) ? 0.0f : expf(S[i * T + j] - m);
                    S[i * T + j] = e;
                    z += e;
                }
                for (int c = 0; c < D; c++) {
                    float a = 0.0f;
                    for (int j = 0; j < T; j++) a += S[i * T + j] * Vh[j * D + c];
                    Ch[i * D + c] = z > 0.0f ? a / z : 0.0f;
                }
            }
        }

        float *Y = out + (size_t)b * T * d;
        for (int t = 0; t < T; t++)
            for (int o = 0; o < d; o++) {
                float a = 0.0f;
                for (int i = 0; i < d; i++) a += C[t * d + i] * wo[i * d + o];
                Y[t * d + o] = a;
            }
    }
    free(Q); free(K); free(V); free(C); free(S);
}
