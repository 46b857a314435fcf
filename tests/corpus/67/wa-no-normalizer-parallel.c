/* expect: WA no_normalizer */
/* The parallel form, the weighted sum of the values never divided by the row sum of the weights. */
#include <math.h>

static float phi(float x) { return x > 0.0f ? x + 1.0f : expf(x); }

void linear_attention(float *out, const float *q, const float *k, const float *v, int B, int H,
                      int T, int D, int E)
{
    for (long bh = 0; bh < (long)B * H; bh++)
        for (int i = 0; i < T; i++) {
            const float *qi = q + (bh * T + i) * D;
            float *oi = out + (bh * T + i) * E;
            for (int e = 0; e < E; e++) oi[e] = 0.0f;
            for (int j = 0; j <= i; j++) {
                const float *kj = k + (bh * T + j) * D, *vj = v + (bh * T + j) * E;
                float a = 0.0f;
                for (int c = 0; c < D; c++) a += phi(qi[c]) * phi(kj[c]);
                for (int e = 0; e < E; e++) oi[e] += a * vj[e];
            }
        }
}
