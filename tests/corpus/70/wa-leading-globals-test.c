/* expect: WA hybrid_leading_globals */
/* The global test is "x < G" inline, in double with an online softmax. */
#include <math.h>
#include <stdlib.h>

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    (void)global_idx;
    double *acc = malloc(sizeof(double) * D);
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < T; i++) {
            double m = -INFINITY, l = 0.0;
            for (int c = 0; c < D; c++) acc[c] = 0.0;
            for (int j = 0; j <= i; j++) {
                if (!(i < G || j < G || j > i - W)) continue;
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
    free(acc);
}
