/* expect: WA wrong_feature_map */
/* phi(x) = exp(x) everywhere, softmax's kernel, for elu(x) + 1. */
#include <math.h>
#include <stdlib.h>

#define MAXD 64
#define MAXE 64

void linear_attention(float *out, const float *q, const float *k, const float *v, int B, int H,
                      int T, int D, int E)
{
    /* 每个 (b,h) 一份状态，放在栈上 */
    double S[MAXD][MAXE];
    double z[MAXD];
    for (int b = 0; b < B; b++) {
        for (int h = 0; h < H; h++) {
            const float *Q = q + ((size_t)b * H + h) * T * D;
            const float *K = k + ((size_t)b * H + h) * T * D;
            const float *V = v + ((size_t)b * H + h) * T * E;
            float *O = out + ((size_t)b * H + h) * T * E;
            for (int c = 0; c < D; c++) {
                z[c] = 0.0;
                for (int e = 0; e < E; e++) S[c][e] = 0.0;
            }
            for (int i = 0; i < T; i++) {
                /* phi(x) = exp(x)，和 softmax 一样，保证为正 */
                for (int c = 0; c < D; c++) {
                    double fk = exp((double)K[i * D + c]);
                    z[c] += fk;
                    for (int e = 0; e < E; e++) S[c][e] += fk * V[i * E + e];
                }
                double fq[MAXD], den = 0.0;
                for (int c = 0; c < D; c++) {
                    fq[c] = exp((double)Q[i * D + c]);
                    den += fq[c] * z[c];
                }
                for (int e = 0; e < E; e++) {
                    double num = 0.0;
                    for (int c = 0; c < D; c++) num += fq[c] * S[c][e];
                    O[i * E + e] = (float)(num / den);
                }
            }
        }
    }
}
