/* expect: WA normalizer_raw_keys */
/* Cumulative sums over a head's positions as the PyTorch versions write
 * them, but the key sum behind the denominator is of K itself, not phi(K). */
#include <math.h>
#include <stdlib.h>

static float elu1(float x) { return x > 0 ? x + 1 : expf(x); }

void linear_attention(float *out, const float *q, const float *k, const float *v, int B, int H,
                      int T, int D, int E)
{
    float *kcum = malloc(sizeof(float) * T * D), *kvcum = malloc(sizeof(float) * T * D * E);
    for (int bh = 0; bh < B * H; bh++) {
        const float *qb = q + (long)bh * T * D, *kb = k + (long)bh * T * D, *vb = v + (long)bh * T * E;
        for (int t = 0; t < T; t++)
            for (int c = 0; c < D; c++) {
                float f = elu1(kb[t * D + c]);
                kcum[t * D + c] = (t ? kcum[(t - 1) * D + c] : 0) + kb[t * D + c];
                for (int e = 0; e < E; e++) {
                    long at = ((long)t * D + c) * E + e;
                    kvcum[at] = (t ? kvcum[at - (long)D * E] : 0) + f * vb[t * E + e];
                }
            }
        for (int t = 0; t < T; t++) {
            float den = 1e-6f;
            for (int c = 0; c < D; c++) den += elu1(qb[t * D + c]) * kcum[t * D + c];
            for (int e = 0; e < E; e++) {
                float num = 0;
                for (int c = 0; c < D; c++) num += elu1(qb[t * D + c]) * kvcum[((long)t * D + c) * E + e];
                out[((long)bh * T + t) * E + e] = num / den;
            }
        }
    }
    free(kcum);
    free(kvcum);
}
