/* expect: WA o_proj_per_head */
/* each head's output is pushed through o_proj on its own using wo rows 0..D-1 for every head instead of rows h*D..h*D+D-1. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define AT(p, t, f) (p)[(size_t)(t) * d + (f)]

void mha(float *out, const float *x,
         const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    int D = d / n_heads;
    double scale = 1.0 / sqrt((double)D);
    float *q = malloc(sizeof(float) * T * d), *k = malloc(sizeof(float) * T * d);
    float *v = malloc(sizeof(float) * T * d);
    double *w = malloc(sizeof(double) * T), *oh = malloc(sizeof(double) * D);

    for (int b = 0; b < B; b++) {
        const float *xb = x + (size_t)b * T * d;
        float *yb = out + (size_t)b * T * d;
        for (int t = 0; t < T; t++)
            for (int j = 0; j < d; j++) {
                double a = 0, c = 0, e = 0;
                for (int i = 0; i < d; i++) {
                    a += AT(xb, t, i) * wq[i * d + j];
                    c += AT(xb, t, i) * wk[i * d + j];
                    e += AT(xb, t, i) * wv[i * d + j];
                }
                AT(q, t, j) = (float)a; AT(k, t, j) = (float)c; AT(v, t, j) = (float)e;
            }

        for (int t = 0; t < T; t++) {
            for (int j = 0; j < d; j++) AT(yb, t, j) = 0.0f;
            for (int h = 0; h < n_heads; h++) {
                double mx = -HUGE_VAL;
                int seen = 0;
                for (int j = 0; j < T; j++) {
                    w[j] = -HUGE_VAL;
                    if ((causal && j > t) || (mask && !mask[b * T + j])) continue;
                    double s = 0;
                    for (int c = 0; c < D; c++) s += (double)AT(q, t, h * D + c) * AT(k, j, h * D + c);
                    w[j] = s * scale;
                    if (w[j] > mx) mx = w[j];
                    seen = 1;
                }
                if (!seen) continue;                 /* empty row: contributes zeros */
                double z = 0;
                for (int j = 0; j < T; j++) { w[j] = (w[j] == -HUGE_VAL) ? 0.0 : exp(w[j] - mx); z += w[j]; }
                for (int c = 0; c < D; c++) {
                    double a = 0;
                    for (int j = 0; j < T; j++) a += w[j] * AT(v, j, h * D + c);
                    oh[c] = a / z;
                }
                /* out[t] += O_h[t] . Wo_h */
                for (int j = 0; j < d; j++) {
                    double a = 0;
                    for (int c = 0; c < D; c++) a += oh[c] * wo[c * d + j];
                    AT(yb, t, j) += (float)a;
                }
            }
        }
    }
    free(q); free(k); free(v); free(w); free(oh);
}
