/* expect: WA hybrid_no_globals */
/* Declares the global flags but marks them in a loop that runs to G over a copy it then throws away: every flag stays 0. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    unsigned char *gl = calloc(T, 1), *mark = calloc(T, 1);
    double *acc = malloc(sizeof(double) * D);
    for (int g = 0; g < G; g++) mark[global_idx[g]] = 1;
    memset(mark, 0, T);   /* meant to copy into gl */
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < T; i++) {
            double m = -INFINITY, l = 0.0;
            for (int c = 0; c < D; c++) acc[c] = 0.0;
            for (int j = 0; j <= i; j++) {
                if (!(gl[i] || gl[j] || j > i - W)) continue;
                double s = 0.0;
                for (int c = 0; c < D; c++) s += (double)q[((size_t)bh * T + i) * D + c] * k[((size_t)bh * T + j) * D + c];
                s /= sqrt((double)D);
                double m2 = s > m ? s : m, corr = exp(m - m2), p = exp(s - m2);
                l = l * corr + p;
                for (int c = 0; c < D; c++) acc[c] = acc[c] * corr + p * v[((size_t)bh * T + j) * D + c];
                m = m2;
            }
            for (int c = 0; c < D; c++) out[((size_t)bh * T + i) * D + c] = (float)(acc[c] / l);
        }
    free(gl);
    free(mark);
    free(acc);
}
