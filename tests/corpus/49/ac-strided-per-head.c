/* expect: AC */
/* No q/k/v buffers: per head and query, folds wk into the query (u = wk_h q_i) and wv into a weighted sum of x rows, reading weight columns with stride d. */
#include <math.h>
#include <stdlib.h>

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    int D = d / n_heads;
    float scale = 1.0f / sqrtf((float)D);
    float *u = malloc(sizeof(float) * d);     /* u[m]  = sum_e q_i[e] * wk[m][h*D+e] */
    float *xs = malloc(sizeof(float) * d);    /* xs[m] = sum_j p_j * x_j[m]           */
    float *hd = malloc(sizeof(float) * D);    /* this head's output for query i       */

    for (int n = 0; n < B * T * d; n++) out[n] = 0;

    for (int b = 0; b < B; b++)
        for (int h = 0; h < n_heads; h++)
            for (int i = 0; i < T; i++) {
                const float *xi = x + ((size_t)b * T + i) * d;
                for (int m = 0; m < d; m++) u[m] = 0;
                for (int e = 0; e < D; e++) {
                    float qe = 0;
                    for (int m = 0; m < d; m++) qe += xi[m] * wq[m * d + h * D + e];
                    for (int m = 0; m < d; m++) u[m] += qe * wk[m * d + h * D + e];
                }
                int end = causal ? i + 1 : T;
                float mx = -INFINITY;
                for (int j = 0; j < end; j++) {          /* pass 1: max score */
                    if (mask && !mask[b * T + j]) continue;
                    const float *xj = x + ((size_t)b * T + j) * d;
                    float s = 0;
                    for (int m = 0; m < d; m++) s += xj[m] * u[m];
                    if (s * scale > mx) mx = s * scale;
                }
                if (mx == -INFINITY) continue;          /* no key: head output is 0 */
                float sum = 0;
                for (int m = 0; m < d; m++) xs[m] = 0;
                for (int j = 0; j < end; j++) {          /* pass 2: weights */
                    if (mask && !mask[b * T + j]) continue;
                    const float *xj = x + ((size_t)b * T + j) * d;
                    float s = 0;
                    for (int m = 0; m < d; m++) s += xj[m] * u[m];
                    float p = expf(s * scale - mx);
                    sum += p;
                    for (int m = 0; m < d; m++) xs[m] += p * xj[m];
                }
                for (int e = 0; e < D; e++) {
                    float a = 0;
                    for (int m = 0; m < d; m++) a += xs[m] * wv[m * d + h * D + e];
                    hd[e] = a / sum;
                }
                float *oi = out + ((size_t)b * T + i) * d;
                for (int e = 0; e < D; e++)
                    for (int c = 0; c < d; c++) oi[c] += hd[e] * wo[(h * D + e) * d + c];
            }
    free(u); free(xs); free(hd);
}
