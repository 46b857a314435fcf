/* expect: WA stale_scores */
/* Causal MHA, projections with a macro, one score row for the whole call:
 * -INFINITY marks a key the query may not look at. */
#include <math.h>
#include <stdlib.h>

#define MATMUL(Y, X, Wt, rows, n)                                     \
    for (int r_ = 0; r_ < (rows); r_++)                               \
        for (int o_ = 0; o_ < (n); o_++) {                            \
            float a_ = 0.0f;                                          \
            for (int i_ = 0; i_ < (n); i_++)                          \
                a_ += (X)[r_ * (n) + i_] * (Wt)[i_ * (n) + o_];       \
            (Y)[r_ * (n) + o_] = a_;                                  \
        }

void mha(float *out, const float *x,
         const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    int hd = d / n_heads;
    float *buf = malloc(sizeof(float) * (size_t)T * d * 4);
    float *Q = buf, *K = Q + T * d, *V = K + T * d, *cat = V + T * d;
    float *sc = malloc(sizeof(float) * T);
    for (int j = 0; j < T; j++) sc[j] = -INFINITY;
    for (int b = 0; b < B; b++) {
        const float *xb = x + (size_t)b * T * d;
        MATMUL(Q, xb, wq, T, d);
        MATMUL(K, xb, wk, T, d);
        MATMUL(V, xb, wv, T, d);
        for (int h = 0; h < n_heads; h++) {
            for (int i = 0; i < T; i++) {
                const float *qi = Q + i * d + h * hd;
                for (int j = 0; j < T; j++) {
                    if (causal && j > i) continue;
                    if (mask && mask[b * T + j] == 0) continue;
                    const float *kj = K + j * d + h * hd;
                    float s = 0.0f;
                    for (int c = 0; c < hd; c++) s += qi[c] * kj[c];
                    sc[j] = s / sqrtf((float)hd);
                }
                float big = -INFINITY;
                for (int j = 0; j < T; j++) if (sc[j] > big) big = sc[j];
                float z = 0.0f;
                float *o = cat + i * d + h * hd;
                for (int c = 0; c < hd; c++) o[c] = 0.0f;
                if (big == -INFINITY) continue;   /* sees nothing: zeros */
                for (int j = 0; j < T; j++) {
                    float e = expf(sc[j] - big);
                    z += e;
                    for (int c = 0; c < hd; c++) o[c] += e * V[j * d + h * hd + c];
                }
                for (int c = 0; c < hd; c++) o[c] /= z;
            }
        }
        MATMUL(out + (size_t)b * T * d, cat, wo, T, d);
    }
    free(buf);
    free(sc);
}
