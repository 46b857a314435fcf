/* expect: WA dot_tail_dropped */
/* The latent dot q_lat . c_j is unrolled by 4 with no remainder loop, so the last d_c % 4 latent dims are dropped from every score. */
#include <math.h>
#include <stdlib.h>

void mla_decode(float *out, const float *q_nope, const float *q_pe, const float *c,
                const float *k_pe, const int *len, const float *w_uk, const float *w_uv,
                int B, int H, int S, int d_c, int d_nope, int d_r, int d_v)
{
    const double inv = 1.0 / sqrt((double)(d_nope + d_r));
    float *ql = malloc(sizeof(float) * d_c);
    double *ol = malloc(sizeof(double) * d_c);
    for (int h = 0; h < H; h++) {
        const float *UK = w_uk + (size_t)h * d_c * d_nope;
        const float *UV = w_uv + (size_t)h * d_c * d_v;
        for (int b = 0; b < B; b++) {
            const float *qn = q_nope + ((size_t)b * H + h) * d_nope;
            const float *qp = q_pe + ((size_t)b * H + h) * d_r;
            const float *row = UK;
            for (int l = 0; l < d_c; l++, row += d_nope) {
                float t = 0.0f;
                for (int i = 0; i < d_nope; i++) t += row[i] * qn[i];
                ql[l] = t;
            }
            double mx = -INFINITY, den = 0.0;
            for (int l = 0; l < d_c; l++) ol[l] = 0.0;
            const float *cj = c + (size_t)b * S * d_c;
            const float *kj = k_pe + (size_t)b * S * d_r;
            for (int j = 0; j < len[b]; j++, cj += d_c, kj += d_r) {
                float lat = 0.0f;
                for (int l = 0; l < d_c - 3; l += 4)
                    lat += ql[l] * cj[l] + ql[l + 1] * cj[l + 1]
                         + ql[l + 2] * cj[l + 2] + ql[l + 3] * cj[l + 3];
                float rot = 0.0f;
                for (int r = 0; r < d_r; r++) rot += qp[r] * kj[r];
                double s = ((double)lat + rot) * inv;
                if (s > mx) {
                    double f = exp(mx - s);
                    den *= f;
                    for (int l = 0; l < d_c; l++) ol[l] *= f;
                    mx = s;
                }
                double e = exp(s - mx);
                den += e;
                for (int l = 0; l < d_c; l++) ol[l] += e * cj[l];
            }
            float *o = out + ((size_t)b * H + h) * d_v;
            for (int x = 0; x < d_v; x++) {
                double t = 0.0;
                for (int l = 0; l < d_c; l++) t += ol[l] * UV[(size_t)l * d_v + x];
                o[x] = (float)(t / den);
            }
        }
    }
    free(ql);
    free(ol);
}
