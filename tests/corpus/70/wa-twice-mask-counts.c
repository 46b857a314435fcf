/* expect: WA hybrid_global_counted_twice */
/* Counts per key how many rules let it in (window, global key) and weighs exp by that count; a global query's row is taken whole, once. */
#include <math.h>
#include <stdlib.h>

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    int *gl = calloc(T, sizeof(int));
    double *p = malloc(sizeof(double) * T);
    for (int g = 0; g < G; g++) gl[global_idx[g]] = 1;
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < T; i++) {
            double mx = -INFINITY, l = 0.0;
            int cnt[4096];
            for (int j = 0; j <= i; j++) {
                cnt[j] = gl[i] ? 1 : (j > i - W) + gl[j];
                double d = 0.0;
                for (int c = 0; c < D; c++) d += (double)q[(bh * T + i) * D + c] * k[(bh * T + j) * D + c];
                p[j] = d / sqrt((double)D);
                if (cnt[j] && p[j] > mx) mx = p[j];
            }
            for (int j = 0; j <= i; j++) l += p[j] = cnt[j] * exp(p[j] - mx);
            for (int c = 0; c < D; c++) {
                double a = 0.0;
                for (int j = 0; j <= i; j++) a += p[j] * v[(bh * T + j) * D + c];
                out[(bh * T + i) * D + c] = (float)(a / l);
            }
        }
    free(gl);
    free(p);
}
