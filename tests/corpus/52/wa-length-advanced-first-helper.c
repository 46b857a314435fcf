/* expect: WA length_advanced_first */
/* uses pre-increment (n = ++len[b]) so the sequence length is advanced before the new row is written, putting it one row too far. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* cache is [B][S_max][H][D], tokens are [B][H][D] */
#define CI(b, p, h, c) ((((size_t)(b) * S_max + (p)) * H + (h)) * D + (c))
#define TI(b, h, c) (((size_t)(b) * H + (h)) * D + (c))

void decode_step(float *out, float *k_cache, float *v_cache, int *len,
                 const float *q, const float *k, const float *v,
                 int B, int S_max, int H, int D)
{
    double inv = 1.0 / sqrt((double)D);
    double *acc = (double *)malloc(sizeof(double) * (size_t)D);
    if (!acc) return;

    for (int b = 0; b < B; b++) {
        int n = ++len[b];
        for (int h = 0; h < H; h++)
            for (int c = 0; c < D; c++) {
                k_cache[CI(b, n, h, c)] = k[TI(b, h, c)];
                v_cache[CI(b, n, h, c)] = v[TI(b, h, c)];
            }

        for (int h = 0; h < H; h++) {
            double m = -INFINITY, l = 0.0;
            for (int c = 0; c < D; c++) acc[c] = 0.0;
            for (int j = 0; j <= n; j++) {
                double s = 0.0;
                for (int c = 0; c < D; c++)
                    s += (double)q[TI(b, h, c)] * (double)k_cache[CI(b, j, h, c)];
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
                    acc[c] += p * (double)v_cache[CI(b, j, h, c)];
            }
            for (int c = 0; c < D; c++)
                out[TI(b, h, c)] = (float)(acc[c] / l);
        }
    }
    free(acc);
}
