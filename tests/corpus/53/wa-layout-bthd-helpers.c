/* expect: WA layout_bthd */
/* computes the row offset as (b*T + t)*H + h, i.e. treats q, k, v and out as [B, T, H, D]. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

static size_t row(int b, int h, int t, int H, int T)
{
    return ((size_t)b * T + t) * H + h;
}

void sink_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int n_sink, int window)
{
    double scale = 1.0 / sqrt((double)D);
    double *acc = (double *)malloc(sizeof(double) * (size_t)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < T; i++) {
                const float *qi = q + row(b, h, i, H, T) * D;
                double m = -INFINITY, l = 0.0;
                for (int c = 0; c < D; c++) acc[c] = 0.0;
                for (int j = 0; j <= i; j++) {
                    if (!(j < n_sink || j > i - window)) continue;
                    const float *kj = k + row(b, h, j, H, T) * D;
                    const float *vj = v + row(b, h, j, H, T) * D;
                    double s = 0.0;
                    for (int c = 0; c < D; c++) s += (double)qi[c] * kj[c];
                    s *= scale;
                    double nm = s > m ? s : m;
                    double r = exp(m - nm), p = exp(s - nm);
                    l = l * r + p;
                    for (int c = 0; c < D; c++) acc[c] = acc[c] * r + p * vj[c];
                    m = nm;
                }
                float *oi = out + row(b, h, i, H, T) * D;
                for (int c = 0; c < D; c++) oi[c] = (float)(acc[c] / l);
            }
    free(acc);
}
