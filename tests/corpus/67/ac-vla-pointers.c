/* expect: AC */
/* Recurrent, float state in VLAs on the stack, the feature maps of a position computed once, pointers walked along q, k, v and out. */
#include <math.h>
#include <string.h>

void linear_attention(float *out, const float *q, const float *k, const float *v, int B, int H,
                      int T, int D, int E)
{
    float S[D][E], z[D], fq[D], fk[D];
    for (int seq = 0; seq < B * H; seq++) {
        memset(S, 0, sizeof S);
        memset(z, 0, sizeof z);
        for (int t = 0; t < T; t++, q += D, k += D, v += E, out += E) {
            for (int c = 0; c < D; c++) {
                fq[c] = q[c] > 0 ? q[c] + 1 : expf(q[c]);
                fk[c] = k[c] > 0 ? k[c] + 1 : expf(k[c]);
                z[c] += fk[c];
                for (int e = 0; e < E; e++) S[c][e] += fk[c] * v[e];
            }
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
