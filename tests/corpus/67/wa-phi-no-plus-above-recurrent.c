/* expect: WA phi_branch_off_by_one */
/* The recurrent form in float with a VLA state; phi is x above 0 and exp(x) below, so the + 1 is missing on the positive branch only. */
#include <math.h>
#include <string.h>

static float phi(float x)
{
    if (x > 0.0f) return x;
    return expf(x);   /* elu(x) + 1 = exp(x) - 1 + 1 */
}

void linear_attention(float *out, const float *q, const float *k, const float *v, int B, int H,
                      int T, int D, int E)
{
    float S[D][E], z[D], fq[D];
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            memset(S, 0, sizeof S);
            memset(z, 0, sizeof z);
            size_t row = ((size_t)b * H + h) * T;
            for (int t = 0; t < T; t++, row++) {
                for (int c = 0; c < D; c++) {
                    float fk = phi(k[row * D + c]);
                    z[c] += fk;
                    for (int e = 0; e < E; e++) S[c][e] += fk * v[row * E + e];
                    fq[c] = phi(q[row * D + c]);
                }
                float den = 0.0f;
                for (int c = 0; c < D; c++) den += fq[c] * z[c];
                for (int e = 0; e < E; e++) {
                    float num = 0.0f;
                    for (int c = 0; c < D; c++) num += fq[c] * S[c][e];
                    out[row * E + e] = num / den;
                }
            }
        }
}
