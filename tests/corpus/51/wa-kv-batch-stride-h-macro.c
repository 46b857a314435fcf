/* expect: WA kv_batch_stride_h */
/* the KV indexing macro strides batches by H query heads instead of Hkv kv heads. */
#include <math.h>
#include <stdlib.h>

#define QI(b, h, i, c) ((((size_t)(b) * H + (h)) * T + (i)) * D + (c))
#define KI(b, g, j, c) ((((size_t)(b) * H + (g)) * S + (j)) * D + (c))

void gqa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int Hkv, int T, int S, int D, int causal)
{
    double inv = 1.0 / sqrt((double)D);
    double *acc = (double *)malloc(sizeof(double) * (size_t)D);
    if (!acc) return;
    int per = H / Hkv;

    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            int g = h / per;
            for (int i = 0; i < T; i++) {
                int jmax = causal ? i + S - T : S - 1;
                double m = -INFINITY, l = 0.0;
                for (int c = 0; c < D; c++) acc[c] = 0.0;
                for (int j = 0; j <= jmax; j++) {
                    double s = 0.0;
                    for (int c = 0; c < D; c++)
                        s += (double)q[QI(b, h, i, c)] * (double)k[KI(b, g, j, c)];
                    s *= inv;
                    if (s > m) {
                        double corr = exp(m - s);
                        l *= corr;
                        for (int c = 0; c < D; c++) acc[c] *= corr;
                        m = s;
                    }
                    double p = exp(s - m);
                    l += p;
                    for (int c = 0; c < D; c++)
                        acc[c] += p * (double)v[KI(b, g, j, c)];
                }
                for (int c = 0; c < D; c++)
                    out[QI(b, h, i, c)] = (float)(acc[c] / l);
            }
        }
    free(acc);
}
