/* expect: WA divided_by_count */
/* The numerator phi(q_i)^T S_i is divided by i + 1, the number of keys seen, instead of by phi(q_i) . z_i. */
#include <math.h>
#include <stdlib.h>

static void elu_plus_one(float *dst, const float *src, int n)
{
    for (int c = 0; c < n; c++)
        dst[c] = src[c] > 0.0f ? src[c] + 1.0f : expf(src[c]);
}

void linear_attention(float *out, const float *q, const float *k, const float *v, int B, int H,
                      int T, int D, int E)
{
    float *state = malloc(sizeof(float) * (size_t)D * E);
    float *fk = malloc(sizeof(float) * D), *fq = malloc(sizeof(float) * D);
    const float *qp = q, *kp = k, *vp = v;
    float *op = out;
    for (int seq = 0; seq < B * H; seq++) {
        for (int c = 0; c < D * E; c++) state[c] = 0.0f;
        for (int i = 0; i < T; i++, qp += D, kp += D, vp += E, op += E) {
            elu_plus_one(fk, kp, D);
            elu_plus_one(fq, qp, D);
            float *row = state;
            for (int c = 0; c < D; c++, row += E)
                for (int e = 0; e < E; e++) row[e] += fk[c] * vp[e];
            for (int e = 0; e < E; e++) {
                float num = 0.0f;
                for (int c = 0; c < D; c++) num += fq[c] * state[c * E + e];
                op[e] = num / (float)(i + 1);
            }
        }
    }
    free(state);
    free(fk);
    free(fq);
}
