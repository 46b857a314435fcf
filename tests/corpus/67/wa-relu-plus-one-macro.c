/* expect: WA wrong_feature_map */
/* Feature map written as fmaxf(x, 0) + 1 (relu + 1) instead of elu(x) + 1, so negative inputs give 1 instead of exp(x). */
#include <math.h>
#include <stdlib.h>

#define PHI(x) (fmaxf((x), 0.0f) + 1.0f)

void linear_attention(float *out, const float *q, const float *k, const float *v, int B, int H,
                      int T, int D, int E)
{
    double *S = malloc(sizeof(double) * D * E), *z = malloc(sizeof(double) * D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *Q = q + ((long)b * H + h) * T * D;
            const float *K = k + ((long)b * H + h) * T * D;
            const float *V = v + ((long)b * H + h) * T * E;
            float *O = out + ((long)b * H + h) * T * E;
            for (int c = 0; c < D * E; c++) S[c] = 0.0;
            for (int c = 0; c < D; c++) z[c] = 0.0;
            for (int t = 0; t < T; t++) {
                for (int c = 0; c < D; c++) {
                    double f = PHI(K[t * D + c]);
                    z[c] += f;
                    for (int e = 0; e < E; e++) S[c * E + e] += f * V[t * E + e];
                }
                double den = 0.0;
                for (int c = 0; c < D; c++) den += PHI(Q[t * D + c]) * z[c];
                for (int e = 0; e < E; e++) {
                    double num = 0.0;
                    for (int c = 0; c < D; c++) num += PHI(Q[t * D + c]) * S[c * E + e];
                    O[t * E + e] = (float)(num / den);
                }
            }
        }
    free(S);
    free(z);
}
