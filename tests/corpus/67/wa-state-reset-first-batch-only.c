/* expect: WA state_not_reset */
/* reset only in the first batch */
#include <math.h>
#include <stddef.h>
/* recurrent form, state in double VLAs, phi as a macro */
#define PHI(x) ((x) > 0 ? (double)(x) + 1.0 : exp((double)(x)))
void linear_attention(float *out, const float *q, const float *k, const float *v, int B, int H,
                      int T, int D, int E)
{
    double S[D][E], z[D], fq[D];
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *Q = q + ((size_t)b * H + h) * T * D, *K = k + ((size_t)b * H + h) * T * D;
            const float *V = v + ((size_t)b * H + h) * T * E;
            float *O = out + ((size_t)b * H + h) * T * E;
            if (b == 0) for (int c = 0; c < D; c++) { z[c] = 0; for (int e = 0; e < E; e++) S[c][e] = 0; }
            for (int t = 0; t < T; t++) {
                for (int c = 0; c < D; c++) {
                    double f = PHI(K[t * D + c]);
                    z[c] += f;
                    for (int e = 0; e < E; e++) S[c][e] += f * V[t * E + e];
                }
                double den = 0;
                for (int c = 0; c < D; c++) { fq[c] = PHI(Q[t * D + c]); den += fq[c] * z[c]; }
                for (int e = 0; e < E; e++) {
                    double num = 0;
                    for (int c = 0; c < D; c++) num += fq[c] * S[c][e];
                    O[t * E + e] = (float)(num / den);
                }
            }
        }
}
