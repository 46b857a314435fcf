/* expect: WA out_written_bthe */
/* Recurrent form; the heads are put back next to each other in the output,
 * as after multi-head attention. */
#include <math.h>
#include <stdlib.h>

static float phi(float x) { return x > 0.0f ? x + 1.0f : expf(x); }

void linear_attention(float *out, const float *q, const float *k, const float *v, int B, int H,
                      int T, int D, int E)
{
    float *st = calloc((size_t)D * E + D, sizeof(float));
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            float *z = st + (size_t)D * E;
            for (size_t c = 0; c < (size_t)D * E + D; c++) st[c] = 0.0f;
            const float *qp = q + ((size_t)b * H + h) * T * D, *kp = k + ((size_t)b * H + h) * T * D;
            const float *vp = v + ((size_t)b * H + h) * T * E;
            for (int t = 0; t < T; t++, qp += D, kp += D, vp += E) {
                for (int c = 0; c < D; c++) {
                    float f = phi(kp[c]);
                    z[c] += f;
                    for (int e = 0; e < E; e++) st[c * E + e] += f * vp[e];
                }
                float den = 0.0f;
                for (int c = 0; c < D; c++) den += phi(qp[c]) * z[c];
                float *o = out + (((size_t)b * T + t) * H + h) * E;
                for (int e = 0; e < E; e++) {
                    float num = 0.0f;
                    for (int c = 0; c < D; c++) num += phi(qp[c]) * st[c * E + e];
                    o[e] = num / den;
                }
            }
        }
    free(st);
}
