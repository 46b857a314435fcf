/* expect: WA phi_branch_off_by_one */
/* The parallel form with a macro for phi that writes elu(x) as exp(x) below 0 (its - 1 lost) and then adds 1 to both branches. */
#include <math.h>

#define PHI(x) (((x) > 0.0f ? (x) : expf(x)) + 1.0f)

void linear_attention(float *out, const float *q, const float *k, const float *v, int B, int H,
                      int T, int D, int E)
{
    int bh, i, j, c, e;
    for (bh = 0; bh < B * H; bh++) {
        const float *Q = q + (long)bh * T * D, *K = k + (long)bh * T * D, *V = v + (long)bh * T * E;
        float *O = out + (long)bh * T * E;
        for (i = 0; i < T; i++) {
            float den = 0.0f;
            for (e = 0; e < E; e++) O[i * E + e] = 0.0f;
            for (j = 0; j <= i; j++) {
                float w = 0.0f;
                for (c = 0; c < D; c++) w += PHI(Q[i * D + c]) * PHI(K[j * D + c]);
                den += w;
                for (e = 0; e < E; e++) O[i * E + e] += w * V[j * E + e];
            }
            for (e = 0; e < E; e++) O[i * E + e] = O[i * E + e] / den;
        }
    }
}
