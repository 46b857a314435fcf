/* expect: AC */
/* Double accumulation everywhere (projections, scores, softmax, o_proj); only the result is rounded to float. */
#include <math.h>
#include <stdlib.h>

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    int D = d / n_heads;
    double scale = 1.0 / sqrt((double)D);
    double *q = malloc(sizeof(double) * T * d), *k = malloc(sizeof(double) * T * d);
    double *v = malloc(sizeof(double) * T * d), *y = malloc(sizeof(double) * T * d);
    double *p = malloc(sizeof(double) * T);

    for (int b = 0; b < B; b++) {
        const float *xb = x + (size_t)b * T * d;
        for (int t = 0; t < T; t++)
            for (int j = 0; j < d; j++) {
                double aq = 0, ak = 0, av = 0;
                for (int i = 0; i < d; i++) {
                    double xi = xb[t * d + i];
                    aq += xi * wq[i * d + j];
                    ak += xi * wk[i * d + j];
                    av += xi * wv[i * d + j];
                }
                q[t * d + j] = aq; k[t * d + j] = ak; v[t * d + j] = av;
            }

        for (int h = 0; h < n_heads; h++)
            for (int i = 0; i < T; i++) {
                double mx = -INFINITY;
                int any = 0;
                for (int j = 0; j < T; j++) {
                    p[j] = 0;
                    if (causal && j > i) continue;
                    if (mask && mask[b * T + j] == 0) continue;
                    double s = 0;
                    for (int e = 0; e < D; e++) s += q[i * d + h * D + e] * k[j * d + h * D + e];
                    p[j] = s * scale;
                    if (!any || p[j] > mx) mx = p[j];
                    any = 1;
                }
                double sum = 0;
                for (int j = 0; j < T; j++) {
                    int ok = (!causal || j <= i) && (!mask || mask[b * T + j]);
                    p[j] = ok ? exp(p[j] - mx) : 0.0;
                    sum += p[j];
                }
                for (int e = 0; e < D; e++) {
                    double acc = 0;
                    if (any)
                        for (int j = 0; j < T; j++) acc += p[j] * v[j * d + h * D + e];
                    y[i * d + h * D + e] = any ? acc / sum : 0.0;
                }
            }

        for (int t = 0; t < T; t++)
            for (int c = 0; c < d; c++) {
                double acc = 0;
                for (int m = 0; m < d; m++) acc += y[t * d + m] * wo[m * d + c];
                out[((size_t)b * T + t) * d + c] = (float)acc;
            }
    }
    free(q); free(k); free(v); free(y); free(p);
}
