/* expect: WA phi_branch_off_by_one */
/* The feature map returns expf(x) - 1 at or below 0 (elu itself there) instead of expf(x), so only the branch above 0 carries the + 1. */
#include <math.h>
#include <stdlib.h>

#define PHI(x) ((x) > 0.0f ? (x) + 1.0f : expf(x) - 1.0f)

void linear_attention(float *out, const float *q, const float *k, const float *v, int B, int H,
                      int T, int D, int E)
{
    /* phi of every key of one sequence, then prefix sums over positions */
    float *pk = malloc(sizeof(float) * (size_t)T * D);
    float *S = calloc((size_t)D * E, sizeof(float));
    float *z = calloc(D, sizeof(float));
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            long off = (long)(b * H + h) * T;
            for (long t = 0; t < (long)T * D; t++) pk[t] = PHI(k[off * D + t]);
            for (int c = 0; c < D; c++) {
                z[c] = 0.0f;
                for (int e = 0; e < E; e++) S[c * E + e] = 0.0f;
            }
            for (int t = 0; t < T; t++) {
                const float *f = pk + (long)t * D, *vt = v + (off + t) * E, *qt = q + (off + t) * D;
                float *ot = out + (off + t) * E;
                for (int c = 0; c < D; c++) {
                    z[c] += f[c];
                    for (int e = 0; e < E; e++) S[c * E + e] += f[c] * vt[e];
                }
                float den = 0.0f;
                for (int e = 0; e < E; e++) ot[e] = 0.0f;
                for (int c = 0; c < D; c++) {
                    float g = PHI(qt[c]);
                    den += g * z[c];
                    for (int e = 0; e < E; e++) ot[e] += g * S[c * E + e];
                }
                for (int e = 0; e < E; e++) ot[e] /= den;
            }
        }
    free(pk);
    free(S);
    free(z);
}
