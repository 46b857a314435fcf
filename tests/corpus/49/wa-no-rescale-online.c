/* expect: WA no_rescale */
/* Online softmax, one key at a time: when a key raises the max, neither the running sum nor the accumulator is rescaled. */
#include <math.h>
#include <stdlib.h>

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    int D = d / n_heads;
    float scale = 1.0f / sqrtf((float)D);
    int n = B * T;                                   /* all rows at once */
    float *q = malloc(sizeof(float) * n * d);
    float *k = malloc(sizeof(float) * n * d);
    float *v = malloc(sizeof(float) * n * d);
    float *y = malloc(sizeof(float) * n * d);

    for (int r = 0; r < n; r++)
        for (int j = 0; j < d; j++) {
            float aq = 0, ak = 0, av = 0;
            for (int i = 0; i < d; i++) {
                aq += x[r * d + i] * wq[i * d + j];
                ak += x[r * d + i] * wk[i * d + j];
                av += x[r * d + i] * wv[i * d + j];
            }
            q[r * d + j] = aq; k[r * d + j] = ak; v[r * d + j] = av;
        }

    for (int b = 0; b < B; b++)
        for (int h = 0; h < n_heads; h++)
            for (int i = 0; i < T; i++) {
                const float *qi = q + (b * T + i) * d + h * D;
                float *yi = y + (b * T + i) * d + h * D;
                float m = -INFINITY, l = 0;
                for (int e = 0; e < D; e++) yi[e] = 0;
                int last = causal ? i : T - 1;
                for (int j = 0; j <= last; j++) {
                    if (mask && !mask[b * T + j]) continue;
                    const float *kj = k + (b * T + j) * d + h * D;
                    const float *vj = v + (b * T + j) * d + h * D;
                    float s = 0;
                    for (int e = 0; e < D; e++) s += qi[e] * kj[e];
                    s *= scale;
                    if (s > m) {                      /* new max: rescale what we have */
                        float c = expf(m - s);        /* m = -inf the first time: c = 0 */
                        l = l + 1.0f;
                        for (int e = 0; e < D; e++) yi[e] = yi[e] + vj[e];
                        m = s;
                    } else {
                        float p = expf(s - m);
                        l += p;
                        for (int e = 0; e < D; e++) yi[e] += p * vj[e];
                    }
                }
                if (l > 0)
                    for (int e = 0; e < D; e++) yi[e] /= l;   /* l == 0: no key, stays 0 */
            }

    for (int r = 0; r < n; r++)
        for (int c = 0; c < d; c++) {
            float acc = 0;
            for (int m = 0; m < d; m++) acc += y[r * d + m] * wo[m * d + c];
            out[r * d + c] = acc;
        }
    free(q); free(k); free(v); free(y);
}
