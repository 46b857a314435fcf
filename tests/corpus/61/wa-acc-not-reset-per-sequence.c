/* expect: WA acc_not_reset */
/* Absorbed, two passes: o_lat is zeroed once for each sequence, before its
 * heads, so each head's latent sum runs on from the heads before it. */
#include <math.h>
#include <stdlib.h>

void mla_decode(float *out, const float *q_nope, const float *q_pe, const float *c,
                const float *k_pe, const int *len, const float *w_uk, const float *w_uv,
                int B, int H, int S, int d_c, int d_nope, int d_r, int d_v)
{
    float scale = 1.0f / sqrtf((float)(d_nope + d_r));
    float *q_lat = malloc(sizeof(float) * d_c), *o_lat = malloc(sizeof(float) * d_c);
    float *p = malloc(sizeof(float) * S);
    for (int b = 0; b < B; b++) {
        int n = len[b];
        for (int l = 0; l < d_c; l++) o_lat[l] = 0.0f;
        for (int h = 0; h < H; h++) {
            const float *qn = q_nope + (b * H + h) * d_nope, *qr = q_pe + (b * H + h) * d_r;
            const float *uk = w_uk + h * d_c * d_nope, *uv = w_uv + h * d_c * d_v;
            for (int l = 0; l < d_c; l++) {
                q_lat[l] = 0.0f;
                for (int i = 0; i < d_nope; i++) q_lat[l] += uk[l * d_nope + i] * qn[i];
            }
            float m = -INFINITY, sum = 0.0f;
            for (int j = 0; j < n; j++) {
                const float *cj = c + (b * S + j) * d_c, *kj = k_pe + (b * S + j) * d_r;
                float s = 0.0f;
                for (int l = 0; l < d_c; l++) s += q_lat[l] * cj[l];
                for (int r = 0; r < d_r; r++) s += qr[r] * kj[r];
                p[j] = s * scale;
                m = fmaxf(m, p[j]);
            }
            for (int j = 0; j < n; j++) {
                p[j] = expf(p[j] - m);
                sum += p[j];
                for (int l = 0; l < d_c; l++) o_lat[l] += p[j] * c[(b * S + j) * d_c + l];
            }
            for (int v = 0; v < d_v; v++) {
                float acc = 0.0f;
                for (int l = 0; l < d_c; l++) acc += o_lat[l] * uv[l * d_v + v];
                out[(b * H + h) * d_v + v] = acc / sum;
            }
        }
    }
    free(q_lat);
    free(o_lat);
    free(p);
}
