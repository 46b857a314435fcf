/* expect: WA denominator_uses_key */
/* The denominator takes phi(k_i) . z_i: ki for qi, a slip of the name. */
#include <math.h>
#include <stdlib.h>

#define PHI(x) ((x) > 0.0f ? (x) + 1.0f : expf(x))

void linear_attention(float *out, const float *q, const float *k, const float *v, int B, int H,
                      int T, int D, int E)
{
    float *buf = malloc(sizeof(float) * ((size_t)D * E + D));
    float *S = buf, *z = buf + (size_t)D * E;
    for (long bh = B * (long)H - 1; bh >= 0; bh--) {
        for (long c = (long)D * E + D - 1; c >= 0; c--) buf[c] = 0.0f;
        const float *qi = q + bh * T * D, *ki = k + bh * T * D, *vi = v + bh * T * E;
        float *oi = out + bh * T * E;
        for (int i = 0; i < T; i++, qi += D, ki += D, vi += E, oi += E) {
            for (int c = 0; c < D; c++) {
                float f = PHI(ki[c]);
                z[c] += f;
                for (int e = 0; e < E; e++) S[c * E + e] += f * vi[e];
            }
            float den = 0.0f;
            for (int c = 0; c < D; c++) den += PHI(ki[c]) * z[c];
            for (int e = 0; e < E; e++) {
                float num = 0.0f;
                for (int c = 0; c < D; c++) num += PHI(qi[c]) * S[c * E + e];
                oi[e] = num / den;
            }
        }
    }
    free(buf);
}
