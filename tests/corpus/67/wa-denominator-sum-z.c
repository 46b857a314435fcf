/* expect: WA denominator_not_dotted */
/* The denominator is the sum of z's elements, with no dot product with phi(q_i). */
#include <math.h>
#include <stdlib.h>

void linear_attention(float *out, const float *q, const float *k, const float *v, int B, int H,
                      int T, int D, int E)
{
    double *S = calloc((size_t)D * E, sizeof(double));
    double *z = calloc((size_t)D, sizeof(double));
    for (int bh = 0; bh < B * H; bh++) {
        for (size_t c = 0; c < (size_t)D * E; c++) S[c] = 0.0;
        for (int c = 0; c < D; c++) z[c] = 0.0;
        for (int i = 0; i < T; i++) {
            size_t r = (size_t)bh * T + i;
            for (int c = 0; c < D; c++) {
                double x = k[r * D + c];
                double f = x > 0 ? x + 1.0 : exp(x);
                z[c] += f;
                for (int e = 0; e < E; e++) S[(size_t)c * E + e] += f * v[r * E + e];
            }
            /* 归一化：除以累加的 z */
            double den = 0.0;
            for (int c = 0; c < D; c++) den += z[c];
            for (int e = 0; e < E; e++) {
                double num = 0.0;
                for (int c = 0; c < D; c++) {
                    double x = q[r * D + c];
                    double f = x > 0 ? x + 1.0 : exp(x);
                    num += f * S[(size_t)c * E + e];
                }
                out[r * E + e] = (float)(num / den);
            }
        }
    }
    free(S);
    free(z);
}
