/* expect: WA latent_batch_offset */
/* Latent-cache index macro misplaces parentheses: c[b * S + j * d_c + l] instead of c[(b * S + j) * d_c + l]. */
#include <math.h>
#include <stdlib.h>

#define C(b, j, l)    c[(b) * S + (j) * d_c + (l)]
#define KPE(b, j, r)  k_pe[((b) * S + (j)) * d_r + (r)]
#define QN(b, h, i)   q_nope[((b) * H + (h)) * d_nope + (i)]
#define QPE(b, h, r)  q_pe[((b) * H + (h)) * d_r + (r)]
#define WUK(h, l, i)  w_uk[((h) * d_c + (l)) * d_nope + (i)]
#define WUV(h, l, v)  w_uv[((h) * d_c + (l)) * d_v + (v)]
#define OUT(b, h, v)  out[((b) * H + (h)) * d_v + (v)]

void mla_decode(float *out, const float *q_nope, const float *q_pe, const float *c,
                const float *k_pe, const int *len, const float *w_uk, const float *w_uv,
                int B, int H, int S, int d_c, int d_nope, int d_r, int d_v)
{
    double inv = 1.0 / sqrt((double)(d_nope + d_r));
    double *ql = malloc(sizeof(double) * d_c);
    double *acc = malloc(sizeof(double) * d_c);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            for (int l = 0; l < d_c; l++) {
                ql[l] = 0.0;
                for (int i = 0; i < d_nope; i++) ql[l] += WUK(h, l, i) * QN(b, h, i);
                acc[l] = 0.0;
            }
            double m = -INFINITY, den = 0.0;
            for (int j = 0; j < len[b]; j++) {      /* online softmax */
                double s = 0.0;
                for (int l = 0; l < d_c; l++) s += ql[l] * C(b, j, l);
                for (int r = 0; r < d_r; r++) s += QPE(b, h, r) * KPE(b, j, r);
                s *= inv;
                if (s > m) {
                    double a = exp(m - s);
                    for (int l = 0; l < d_c; l++) acc[l] *= a;
                    den *= a;
                    m = s;
                }
                double w = exp(s - m);
                den += w;
                for (int l = 0; l < d_c; l++) acc[l] += w * C(b, j, l);
            }
            for (int v = 0; v < d_v; v++) {
                double o = 0.0;
                for (int l = 0; l < d_c; l++) o += acc[l] * WUV(h, l, v);
                OUT(b, h, v) = (float)(o / den);
            }
        }
    free(ql); free(acc);
}
