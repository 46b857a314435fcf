/* expect: WA state_row_stride_d */
/* The D x E state indexed S[c*D + e]: rows overlap when E > D. */
#include <math.h>

#define MAXD 32
#define MAXE 48

static float phi(float x) { return x > 0 ? x + 1 : expf(x); }

void linear_attention(float *out, const float *q, const float *k, const float *v, int B, int H,
                      int T, int D, int E)
{
    for (int bh = 0; bh < B * H; bh++) {
        float S[MAXD * MAXE + MAXD * MAXD] = {0};   /* 多留一点空间，免得越界 */
        float z[MAXD] = {0};
        for (int i = 0; i < T; i++) {
            const float *qi = q + ((long)bh * T + i) * D;
            const float *ki = k + ((long)bh * T + i) * D;
            const float *vi = v + ((long)bh * T + i) * E;
            float *oi = out + ((long)bh * T + i) * E;
            for (int c = 0; c < D; c++) {
                float f = phi(ki[c]);
                z[c] += f;
                for (int e = 0; e < E; e++) S[c * D + e] += f * vi[e];
            }
            float den = 0;
            for (int c = 0; c < D; c++) den += phi(qi[c]) * z[c];
            for (int e = 0; e < E; e++) {
                float num = 0;
                for (int c = 0; c < D; c++) num += phi(qi[c]) * S[c * D + e];
                oi[e] = num / den;
            }
        }
    }
}
