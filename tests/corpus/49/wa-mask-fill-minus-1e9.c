/* expect: WA mask_fill_finite */
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void proj(float *y, const float *x, const float *w, int T, int d)
{
    for (int t = 0; t < T; t++)
        for (int j = 0; j < d; j++) {
            float s = 0;
            for (int i = 0; i < d; i++) s += x[t*d + i] * w[i*d + j];   /*PROJ*/
            y[t*d + j] = s;
        }
}

void mha(float *out, const float *x, const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    int D = d / n_heads;
    float scale = 1.0f / sqrtf((float)D);   /*SCALE*/
    float *Q = malloc(4 * T * d * sizeof(float));
    float *K = Q + T*d, *V = K + T*d, *C = V + T*d;
    float *sc = malloc(T * sizeof(float));
    for (int b = 0; b < B; b++) {
        const float *xb = x + b*T*d;
        proj(Q, xb, wq, T, d); proj(K, xb, wk, T, d); proj(V, xb, wv, T, d);
        for (int h = 0; h < n_heads; h++)
            for (int i = 0; i < T; i++) {
                float mx = -INFINITY;   /*MAX*/
                for (int j = 0; j < T; j++) {
                    float s = 0;
                    for (int c = 0; c < D; c++) s += Q[i*d + h*D + c] * K[j*d + h*D + c];   /*DOT*/
                    s *= scale;
                    if (causal && j > i) s = -1e9f;
                    if (mask && mask[b*T + j] == 0) s = -1e9f;
                    sc[j] = s;
                    if (s > mx) mx = s;
                }
                float z = 0;
                for (int j = 0; j < T; j++) {
                    sc[j] = (sc[j] == -INFINITY) ? 0.0f : expf(sc[j] - mx);   /*EXP*/
                    z += sc[j];
                }
                for (int c = 0; c < D; c++) {
                    float a = 0;
                    for (int j = 0; j < T; j++) a += sc[j] * V[j*d + h*D + c];   /*AV*/
                    C[i*d + h*D + c] = z > 0 ? a / z : 0.0f;   /*NORM*/
                }
            }
        proj(out + b*T*d, C, wo, T, d);   /*OPROJ*/
    }
    free(Q); free(sc);
}
