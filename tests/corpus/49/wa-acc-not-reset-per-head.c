/* expect: WA acc_not_reset */
/* the per-head output accumulator o[D] is cleared once per head rather than for every query token, so weighted values pile up across tokens. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void mha(float *out, const float *x,
         const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    const int D = d / n_heads;
    const float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++) {
        const float *xb = x + (size_t)b * T * d;
        float Q[T][d], K[T][d], V[T][d], Y[T][d];
        for (int t = 0; t < T; t++)
            for (int j = 0; j < d; j++) {
                float a = 0.0f, c = 0.0f, e = 0.0f;
                for (int i = 0; i < d; i++) {
                    a += xb[t * d + i] * wq[i * d + j];
                    c += xb[t * d + i] * wk[i * d + j];
                    e += xb[t * d + i] * wv[i * d + j];
                }
                Q[t][j] = a; K[t][j] = c; V[t][j] = e;
            }

        for (int h = 0; h < n_heads; h++) {
            float o[D];
            for (int c = 0; c < D; c++) o[c] = 0.0f;
            for (int i = 0; i < T; i++) {
                float s[T], top = -INFINITY;
                for (int j = 0; j < T; j++) {
                    int vis = !(causal && j > i) && !(mask && !mask[b * T + j]);
                    float dot = 0.0f;
                    if (vis)
                        for (int c = 0; c < D; c++) dot += Q[i][h * D + c] * K[j][h * D + c];
                    s[j] = vis ? dot * scale : -INFINITY;
                    if (s[j] > top) top = s[j];
                }
                float z = 0.0f;
                for (int j = 0; j < T; j++) {
                    s[j] = (s[j] == -INFINITY) ? 0.0f : expf(s[j] - top);
                    z += s[j];
                }
                for (int j = 0; j < T; j++)
                    for (int c = 0; c < D; c++) o[c] += s[j] * V[j][h * D + c];
                for (int c = 0; c < D; c++) Y[i][h * D + c] = z > 0.0f ? o[c] / z : 0.0f;
            }
        }

        for (int t = 0; t < T; t++)
            for (int j = 0; j < d; j++) {
                float a = 0.0f;
                for (int i = 0; i < d; i++) a += Y[t][i] * wo[i * d + j];
                out[((size_t)b * T + t) * d + j] = a;
            }
    }
}
