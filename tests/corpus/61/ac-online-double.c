/* expect: AC */
/* Absorbed, one pass with an online softmax in double, stack arrays for q_lat and the latent accumulator. */
#include <math.h>

void mla_decode(float *out, const float *q_nope, const float *q_pe, const float *c,
                const float *k_pe, const int *len, const float *w_uk, const float *w_uv,
                int B, int H, int S, int d_c, int d_nope, int d_r, int d_v)
{
    const double scale = 1.0 / sqrt((double)(d_nope + d_r));
    for (int b = 0; b < B; b++) {
        const float *cb = c + (long)b * S * d_c, *kb = k_pe + (long)b * S * d_r;
        for (int h = 0; h < H; h++) {
            double q_lat[64], acc[64], m = -INFINITY, l = 0.0;
            const float *uk = w_uk + (long)h * d_c * d_nope, *uv = w_uv + (long)h * d_c * d_v;
            for (int a = 0; a < d_c; a++) {
                q_lat[a] = 0.0;
                for (int i = 0; i < d_nope; i++) q_lat[a] += (double)uk[a * d_nope + i] * q_nope[(b * H + h) * d_nope + i];
                acc[a] = 0.0;
            }
            for (int j = 0; j < len[b]; j++) {
                double s = 0.0;
                for (int a = 0; a < d_c; a++) s += q_lat[a] * cb[j * d_c + a];
                for (int r = 0; r < d_r; r++) s += (double)q_pe[(b * H + h) * d_r + r] * kb[j * d_r + r];
                s *= scale;
                double mn = s > m ? s : m, corr = exp(m - mn), e = exp(s - mn);
                l = l * corr + e;
                m = mn;
                for (int a = 0; a < d_c; a++) acc[a] = acc[a] * corr + e * cb[j * d_c + a];
            }
            for (int x = 0; x < d_v; x++) {
                double o = 0.0;
                for (int a = 0; a < d_c; a++) o += acc[a] * uv[a * d_v + x];
                out[(b * H + h) * d_v + x] = (float)(o / l);
            }
        }
    }
}
