/* expect: WA hybrid_global_keys_unseen */
/* A global query gets its whole past; the rule forgets that a global key is seen by every later query. */
#include <math.h>
#include <stdlib.h>

static int is_global(const int *idx, int G, int x)
{
    for (int g = 0; g < G; g++)
        if (idx[g] == x) return 1;
    return 0;
}

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    double *w = malloc(sizeof(double) * T);
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < T; i++) {
            int lo = is_global(global_idx, G, i) ? 0 : (i - W + 1 > 0 ? i - W + 1 : 0);
            double m = -INFINITY, z = 0.0;
            for (int j = lo; j <= i; j++) {
                double s = 0.0;
                for (int c = 0; c < D; c++) s += (double)q[((size_t)bh * T + i) * D + c] * k[((size_t)bh * T + j) * D + c];
                w[j] = s / sqrt((double)D);
                if (w[j] > m) m = w[j];
            }
            for (int j = lo; j <= i; j++) z += w[j] = exp(w[j] - m);
            for (int c = 0; c < D; c++) {
                double acc = 0.0;
                for (int j = lo; j <= i; j++) acc += w[j] * v[((size_t)bh * T + j) * D + c];
                out[((size_t)bh * T + i) * D + c] = (float)(acc / z);
            }
        }
    free(w);
}
