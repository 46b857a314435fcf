/* att_oracle.c: multi-head attention entirely in double, for the tests only.
 * Written apart from att_ref.c on purpose (one loop nest, no shared helpers),
 * so that a slip in the reference cannot hide in the oracle too. */
#include <math.h>
#include "att.h"

size_t att_mha_oracle_scratch(int T, int d)
{
    return 4 * (size_t)T * d + (size_t)T;
}

static void project(double *y, const float *x, const float *w, int T, int d)
{
    for (int t = 0; t < T; t++)
        for (int o = 0; o < d; o++) {
            double s = 0.0;
            for (int i = 0; i < d; i++)
                s += (double)x[(size_t)t * d + i] * (double)w[(size_t)i * d + o];
            y[(size_t)t * d + o] = s;
        }
}

att_status att_mha_oracle(double *out, const float *x, const float *wq,
                          const float *wk, const float *wv, const float *wo,
                          const unsigned char *mask, int B, int T, int d,
                          int H, int causal, double *scratch)
{
    if (B <= 0 || T <= 0 || d <= 0 || H <= 0) return ATT_EBADSHAPE;
    if (d % H != 0) return ATT_EHEADS;
    int D = d / H;
    size_t td = (size_t)T * d;
    double *q = scratch, *k = q + td, *v = k + td, *cat = v + td, *p = cat + td;
    for (int b = 0; b < B; b++) {
        const float *xb = x + b * td;
        project(q, xb, wq, T, d);
        project(k, xb, wk, T, d);
        project(v, xb, wv, T, d);
        for (int h = 0; h < H; h++)
            for (int i = 0; i < T; i++) {
                double m = -INFINITY, z = 0.0;
                for (int j = 0; j < T; j++) {
                    int ok = !(causal && j > i) && !(mask && !mask[(size_t)b * T + j]);
                    double s = 0.0;
                    for (int c = 0; c < D; c++)
                        s += q[(size_t)i * d + h * D + c] * k[(size_t)j * d + h * D + c];
                    p[j] = ok ? s / sqrt((double)D) : -INFINITY;
                    if (p[j] > m) m = p[j];
                }
                for (int j = 0; j < T; j++) {
                    p[j] = m == -INFINITY ? 0.0 : exp(p[j] - m);
                    z += p[j];
                }
                for (int c = 0; c < D; c++) {
                    double s = 0.0;
                    for (int j = 0; j < T; j++)
                        s += z > 0 ? p[j] / z * v[(size_t)j * d + h * D + c] : 0.0;
                    cat[(size_t)i * d + h * D + c] = s;
                }
            }
        for (int t = 0; t < T; t++)
            for (int o = 0; o < d; o++) {
                double s = 0.0;
                for (int i = 0; i < d; i++)
                    s += cat[(size_t)t * d + i] * (double)wo[(size_t)i * d + o];
                out[b * td + (size_t)t * d + o] = s;
            }
    }
    return ATT_OK;
}
