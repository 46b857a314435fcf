/* expect: WA scale_multiplied */
/* Fused QKV projection in double; the scale is written sqrt(D) instead of 1/sqrt(D). */
#include <math.h>
#include <stdlib.h>

void mha(float *out, const float *x,
         const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    int H = n_heads, D = d / H, d3 = 3 * d;
    double inv_sqrt = sqrt((double)D);
    float *qkv = malloc(sizeof(float) * T * d3);
    double *p = malloc(sizeof(double) * T);
    double *o = malloc(sizeof(double) * D);
    for (int b = 0; b < B; b++) {
        const float *xb = x + (size_t)b * T * d;
        float *ob = out + (size_t)b * T * d;
        for (int t = 0; t < T; t++)
            for (int j = 0; j < d; j++) {
                float sq = 0.0f, sk = 0.0f, sv = 0.0f;
                for (int i = 0; i < d; i++) {
                    float xi = xb[t * d + i];
                    sq += xi * wq[i * d + j];
                    sk += xi * wk[i * d + j];
                    sv += xi * wv[i * d + j];
                }
                qkv[t * d3 + j] = sq;
                qkv[t * d3 + d + j] = sk;
                qkv[t * d3 + 2 * d + j] = sv;
            }
        for (int n = 0; n < T * d; n++) ob[n] = 0.0f;
        for (int i = 0; i < T; i++)
            for (int h = 0; h < H; h++) {
                const float *qi = qkv + i * d3 + h * D;
                double mx = -INFINITY;
                for (int j = 0; j < T; j++) {
                    int hidden = (causal && j > i) || (mask && mask[b * T + j] == 0);
                    if (hidden) {
                        p[j] = -INFINITY;
                        continue;
                    }
                    const float *kj = qkv + j * d3 + d + h * D;
                    double s = 0.0;
                    for (int c = 0; c < D; c++) s += (double)qi[c] * kj[c];
                    p[j] = s * inv_sqrt;
                    if (p[j] > mx) mx = p[j];
                }
                if (mx == -INFINITY) continue;      /* sees no key: adds nothing */
                double sum = 0.0;
                for (int j = 0; j < T; j++) sum += p[j] = exp(p[j] - mx);
                for (int c = 0; c < D; c++) {
                    double acc = 0.0;
                    for (int j = 0; j < T; j++) acc += p[j] * qkv[j * d3 + 2 * d + h * D + c];
                    o[c] = acc / sum;
                }
                for (int c = 0; c < D; c++)
                    for (int f = 0; f < d; f++)
                        ob[i * d + f] += (float)(o[c] * wo[(h * D + c) * d + f]);
            }
    }
    free(qkv);
    free(p);
    free(o);
}
