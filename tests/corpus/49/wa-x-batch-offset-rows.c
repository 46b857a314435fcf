/* expect: WA @batch */
/* Sequence b's input is taken at x + b*T, counting rows where it counts
 * floats (b*T*d): every sequence after the first projects a shifted slice
 * of x. Written with one scratch block and row pointers. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void mha(float *out, const float *x,
         const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    const int hd = d / n_heads;
    const float sc = 1.0f / sqrtf((float)hd);
    float *buf = malloc(sizeof(float) * (5 * (size_t)T * d + T));
    float *Q = buf, *K = Q + T * d, *V = K + T * d, *C = V + T * d, *P = C + T * d;
    float *Y = P + T;
    const float *W[3] = { wq, wk, wv };
    float *dst[3] = { Q, K, V };
    for (int b = 0; b < B; b++) {
        const float *xs = x + (size_t)b * T;   /* rows, not floats */
        for (int m = 0; m < 3; m++)
            for (int t = 0; t < T; t++)
                for (int o = 0; o < d; o++) {
                    float a = 0;
                    for (int i = 0; i < d; i++) a += xs[t * d + i] * W[m][i * d + o];
                    dst[m][t * d + o] = a;
                }
        for (int h = 0; h < n_heads; h++)
            for (int t = 0; t < T; t++) {
                const float *qr = Q + t * d + h * hd;
                float mx = -INFINITY, den = 0;
                for (int s = 0; s < T; s++) {
                    int hidden = (causal && s > t) || (mask && !mask[b * T + s]);
                    float e = 0;
                    for (int c = 0; c < hd && !hidden; c++) e += qr[c] * K[s * d + h * hd + c];
                    P[s] = hidden ? -INFINITY : e * sc;
                    if (P[s] > mx) mx = P[s];
                }
                for (int s = 0; s < T; s++) den += P[s] = P[s] == -INFINITY ? 0 : expf(P[s] - mx);
                for (int c = 0; c < hd; c++) {
                    float a = 0;
                    for (int s = 0; s < T; s++) a += P[s] * V[s * d + h * hd + c];
                    C[t * d + h * hd + c] = den > 0 ? a / den : 0;
                }
            }
        for (int t = 0; t < T; t++)
            for (int o = 0; o < d; o++) {
                float a = 0;
                for (int i = 0; i < d; i++) a += C[t * d + i] * wo[i * d + o];
                Y[t * d + o] = a;
            }
        memcpy(out + (size_t)b * T * d, Y, sizeof(float) * T * d);
    }
    free(buf);
}
