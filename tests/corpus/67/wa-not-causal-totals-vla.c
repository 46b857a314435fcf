/* expect: WA not_causal */
/* Two passes per sequence with VLAs: S and z summed over every position first, then every query reads the totals. */
#include <math.h>
#include <string.h>

void linear_attention(float *out, const float *q, const float *k, const float *v, int B, int H,
                      int T, int D, int E)
{
    float S[D][E], z[D], fq[D], fk[D];
    for (int seq = 0; seq < B * H; seq++) {
        memset(S, 0, sizeof S);
        memset(z, 0, sizeof z);
        for (int t = 0; t < T; t++)
            for (int c = 0; c < D; c++) {
                fk[c] = k[t * D + c] > 0 ? k[t * D + c] + 1 : expf(k[t * D + c]);
                z[c] += fk[c];
                for (int e = 0; e < E; e++) S[c][e] += fk[c] * v[t * E + e];
            }
        k += T * D, v += T * E;
        for (int t = 0; t < T; t++, q += D, out += E) {
            for (int c = 0; c < D; c++) fq[c] = q[c] > 0 ? q[c] + 1 : expf(q[c]);
            float den = 0;
            for (int c = 0; c < D; c++) den += fq[c] * z[c];
            for (int e = 0; e < E; e++) {
                float num = 0;
                for (int c = 0; c < D; c++) num += fq[c] * S[c][e];
                out[e] = num / den;
            }
        }
    }
}
