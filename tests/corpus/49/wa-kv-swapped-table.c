/* expect: WA kv_swapped */
/* the weight table lists {wq, wv, wk}, so keys are projected with wv and values with wk (K and V swapped). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { PQ, PK, PV };

void mha(float *out, const float *x,
         const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    const int D = d / n_heads;
    const float scale = 1.0f / sqrtf((float)D);
    const float *W[3] = { wq, wv, wk };
    size_t n = (size_t)B * T * d;
    float *proj[3];
    for (int m = 0; m < 3; m++) {
        proj[m] = malloc(n * sizeof(float));
        for (size_t r = 0; r < (size_t)B * T; r++)
            for (int j = 0; j < d; j++) {
                float s = 0.0f;
                for (int i = 0; i < d; i++) s += x[r * d + i] * W[m][i * d + j];
                proj[m][r * d + j] = s;
            }
    }
    const float *q = proj[PQ], *k = proj[PK], *v = proj[PV];
    float *heads = malloc(n * sizeof(float));
    float *sc = malloc((size_t)T * sizeof(float));

    for (int b = 0; b < B; b++)
        for (int h = 0; h < n_heads; h++)
            for (int i = 0; i < T; i++) {
                const float *qi = q + ((size_t)b * T + i) * d + h * D;
                float best = -INFINITY;
                for (int j = 0; j < T; j++) {
                    sc[j] = -INFINITY;
                    if (causal && j > i) continue;
                    if (mask && mask[b * T + j] == 0) continue;
                    const float *kj = k + ((size_t)b * T + j) * d + h * D;
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qi[c] * kj[c];
                    sc[j] = s * scale;
                    if (sc[j] > best) best = sc[j];
                }
                float *hi = heads + ((size_t)b * T + i) * d + h * D;
                if (best == -INFINITY) { memset(hi, 0, D * sizeof(float)); continue; }
                float z = 0.0f;
                for (int j = 0; j < T; j++) {
                    sc[j] = expf(sc[j] - best);
                    z += sc[j];
                }
                for (int c = 0; c < D; c++) {
                    float a = 0.0f;
                    for (int j = 0; j < T; j++) a += sc[j] * v[((size_t)b * T + j) * d + h * D + c];
                    hi[c] = a / z;
                }
            }

    for (size_t r = 0; r < (size_t)B * T; r++)
        for (int j = 0; j < d; j++) {
            float s = 0.0f;
            for (int i = 0; i < d; i++) s += heads[r * d + i] * wo[i * d + j];
            out[r * d + j] = s;
        }
    for (int m = 0; m < 3; m++) free(proj[m]);
    free(heads); free(sc);
}
