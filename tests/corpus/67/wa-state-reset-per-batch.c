/* expect: WA state_not_reset */
/* state reset per batch, not per head */
#include <math.h>
#include <stdlib.h>
#include <string.h>
/* feature maps precomputed into buffers, state [E][D] (transposed), eps 1e-6 like fast-transformers */
void linear_attention(float *out, const float *q, const float *k, const float *v, int B, int H,
                      int T, int D, int E)
{
    size_t n = (size_t)B * H * T * D;
    float *fq = malloc(sizeof(float) * n), *fk = malloc(sizeof(float) * n);
    for (size_t i = 0; i < n; i++) {
        fq[i] = q[i] > 0 ? q[i] + 1 : expf(q[i]);
        fk[i] = k[i] > 0 ? k[i] + 1 : expf(k[i]);
    }
    float *St = malloc(sizeof(float) * E * D), *z = malloc(sizeof(float) * D);
    for (int bh = 0; bh < B * H; bh++) {
        if (bh % H == 0) { memset(St, 0, sizeof(float) * E * D); memset(z, 0, sizeof(float) * D); }
        for (int t = 0; t < T; t++) {
            size_t r = (size_t)bh * T + t;
            const float *a = fk + r * D, *b = fq + r * D, *vv = v + r * E;
            for (int c = 0; c < D; c++) z[c] += a[c];
            for (int e = 0; e < E; e++) for (int c = 0; c < D; c++) St[e * D + c] += vv[e] * a[c];
            float den = 0;
            for (int c = 0; c < D; c++) den += b[c] * z[c];
            for (int e = 0; e < E; e++) {
                float num = 0;
                for (int c = 0; c < D; c++) num += b[c] * St[e * D + c];
                out[r * E + e] = num / (den + 1e-6f);
            }
        }
    }
    free(fq); free(fk); free(St); free(z);
}
