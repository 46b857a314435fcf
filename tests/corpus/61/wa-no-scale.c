/* expect: WA no_scale */
#include <math.h>
#include <stdlib.h>

void mla_decode(float *out, const float *q_nope, const float *q_pe, const float *c,
                const float *k_pe, const int *len, const float *w_uk, const float *w_uv,
                int B, int H, int S, int d_c, int d_nope, int d_r, int d_v)
{
    float scale = 1.0f;
    float q_lat[d_c], o_lat[d_c], sc[S];
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *qn = q_nope + (b * H + h) * d_nope, *qr = q_pe + (b * H + h) * d_r;
            for (int l = 0; l < d_c; l++) {
                float a = 0;
                for (int i = 0; i < d_nope; i++) a += w_uk[(h * d_c + l) * d_nope + i] * qn[i];
                q_lat[l] = a;
            }
            int n = len[b];
            float mx = -INFINITY;
            for (int j = 0; j < n; j++) {
                const float *cj = c + ((size_t)b * S + j) * d_c, *kj = k_pe + ((size_t)b * S + j) * d_r;
                float s = 0;
                for (int l = 0; l < d_c; l++) s += q_lat[l] * cj[l];
                for (int r = 0; r < d_r; r++) s += qr[r] * kj[r];
                sc[j] = s * scale;
                if (sc[j] > mx) mx = sc[j];
            }
            float tot = 0;
            for (int l = 0; l < d_c; l++) o_lat[l] = 0;
            for (int j = 0; j < n; j++) {
                float e = expf(sc[j] - mx);
                tot += e;
                for (int l = 0; l < d_c; l++) o_lat[l] += e * c[((size_t)b * S + j) * d_c + l];
            }
            for (int v = 0; v < d_v; v++) {
                float a = 0;
                for (int l = 0; l < d_c; l++) a += o_lat[l] * w_uv[(h * d_c + l) * d_v + v];
                out[(b * H + h) * d_v + v] = a / tot;
            }
        }
}
