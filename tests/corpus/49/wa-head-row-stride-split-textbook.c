/* expect: WA head_row_stride */
/* The textbook layout, but a head reads its q, k and v rows at i*D + h*D
 * (the rows stepped by the head's width, not d); the concatenation is right. */
#include <math.h>
#include <stdlib.h>

void mha(float *out, const float *x, const float *wq, const float *wk,
         const float *wv, const float *wo, const unsigned char *mask,
         int B, int T, int d, int n_heads, int causal)
{
    int D = d / n_heads;
    float scale = 1.0f / sqrtf((float)D);
    float *q = malloc(sizeof(float) * T * d);
    float *k = malloc(sizeof(float) * T * d);
    float *v = malloc(sizeof(float) * T * d);
    float *att = malloc(sizeof(float) * T * d);   /* concatenated heads */
    float *s = malloc(sizeof(float) * T);

    for (int b = 0; b < B; b++) {
        const float *xb = x + (size_t)b * T * d;
        for (int t = 0; t < T; t++)
            for (int j = 0; j < d; j++) {
                float aq = 0, ak = 0, av = 0;
                for (int i = 0; i < d; i++) {
                    float xi = xb[t * d + i];
                    aq += xi * wq[i * d + j];
                    ak += xi * wk[i * d + j];
                    av += xi * wv[i * d + j];
                }
                q[t * d + j] = aq;
                k[t * d + j] = ak;
                v[t * d + j] = av;
            }

        for (int h = 0; h < n_heads; h++) {
            int o = h * D;
            for (int i = 0; i < T; i++) {
                float mx = -INFINITY;
                for (int j = 0; j < T; j++) {
                    int seen = (!causal || j <= i) && (!mask || mask[b * T + j]);
                    if (!seen) { s[j] = -INFINITY; continue; }
                    float dot = 0;
                    for (int e = 0; e < D; e++)
                        dot += q[i * D + o + e] * k[j * D + o + e];
                    s[j] = dot * scale;
                    if (s[j] > mx) mx = s[j];
                }
                float *a = att + i * d + o;
                for (int e = 0; e < D; e++) a[e] = 0;
                if (mx == -INFINITY) continue;          /* sees no key: zeros */
                float sum = 0;
                for (int j = 0; j < T; j++) {
                    s[j] = expf(s[j] - mx);             /* exp(-inf) = 0 for unseen keys */
                    sum += s[j];
                }
                for (int j = 0; j < T; j++) {
                    float p = s[j] / sum;
                    for (int e = 0; e < D; e++) a[e] += p * v[j * D + o + e];
                }
            }
        }

        float *ob = out + (size_t)b * T * d;
        for (int t = 0; t < T; t++)
            for (int c = 0; c < d; c++) {
                float acc = 0;
                for (int m = 0; m < d; m++) acc += att[t * d + m] * wo[m * d + c];
                ob[t * d + c] = acc;
            }
    }
    free(q); free(k); free(v); free(att); free(s);
}
