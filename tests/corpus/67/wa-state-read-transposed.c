/* expect: WA state_read_transposed */
/* Adds phi(k) v^T into S laid out as S[c*E+e] but reads it back as S[e*D+c] (transposed index) when forming the numerator. */
#include <math.h>
#include <stdlib.h>

static float phi(float x) { return x > 0.0f ? x + 1.0f : expf(x); }

void linear_attention(float *out, const float *q, const float *k, const float *v, int B, int H,
                      int T, int D, int E)
{
    float *S = malloc(sizeof(float) * D * E), *z = malloc(sizeof(float) * D);
    float *fq = malloc(sizeof(float) * D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (long)bh * T * D, *K = k + (long)bh * T * D;
        const float *V = v + (long)bh * T * E;
        float *O = out + (long)bh * T * E;
        for (int c = 0; c < D * E; c++) S[c] = 0.0f;
        for (int c = 0; c < D; c++) z[c] = 0.0f;
        for (int i = 0; i < T; i++) {
            for (int c = 0; c < D; c++) {
                float fk = phi(K[i * D + c]);
                z[c] += fk;
                for (int e = 0; e < E; e++) S[c * E + e] += fk * V[i * E + e];
            }
            float den = 0.0f;
            for (int c = 0; c < D; c++) {
                fq[c] = phi(Q[i * D + c]);
                den += fq[c] * z[c];
            }
            for (int e = 0; e < E; e++) {
                float num = 0.0f;
                for (int c = 0; c < D; c++) num += fq[c] * S[e * D + c];
                O[i * E + e] = num / den;
            }
        }
    }
    free(S);
    free(z);
    free(fq);
}
