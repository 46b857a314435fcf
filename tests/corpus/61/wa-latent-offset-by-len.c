/* expect: WA latent_batch_offset */
/* Offsets sequence b's latent cache by b * len[b] * d_c (as if packed by length) instead of b * S * d_c. */
#include <math.h>
#include <stdlib.h>

void mla_decode(float *out, const float *q_nope, const float *q_pe, const float *c,
                const float *k_pe, const int *len, const float *w_uk, const float *w_uv,
                int B, int H, int S, int d_c, int d_nope, int d_r, int d_v)
{
    const float scale = 1.0f / sqrtf((float)(d_nope + d_r));
    float *q_lat = malloc(sizeof(float) * d_c);
    float *o_lat = malloc(sizeof(float) * d_c);
    float *p = malloc(sizeof(float) * (S + 1));
    for (int b = 0; b < B; b++) {
        const float *cb = c + (size_t)b * len[b] * d_c;
        const float *kb = k_pe + (size_t)b * S * d_r;
        int n = len[b];
        for (int h = 0; h < H; h++) {
            const float *qn = q_nope + (b * H + h) * d_nope;
            const float *qr = q_pe + (b * H + h) * d_r;
            const float *uk = w_uk + (size_t)h * d_c * d_nope;
            const float *uv = w_uv + (size_t)h * d_c * d_v;
            for (int l = 0; l < d_c; l++) {
                float acc = 0.0f;
                for (int i = 0; i < d_nope; i++) acc += uk[l * d_nope + i] * qn[i];
                q_lat[l] = acc;
            }
            float mx = -INFINITY;
            for (int j = 0; j < n; j++) {
                float s1 = 0.0f, s2 = 0.0f;
                for (int l = 0; l < d_c; l++) s1 += q_lat[l] * cb[j * d_c + l];
                for (int r = 0; r < d_r; r++) s2 += qr[r] * kb[j * d_r + r];
                p[j] = (s1 + s2) * scale;
                if (p[j] > mx) mx = p[j];
            }
            float sum = 0.0f;
            for (int l = 0; l < d_c; l++) o_lat[l] = 0.0f;
            for (int j = 0; j < n; j++) {
                float e = expf(p[j] - mx);
                sum += e;
                for (int l = 0; l < d_c; l++) o_lat[l] += e * cb[j * d_c + l];
            }
            for (int l = 0; l < d_c; l++) o_lat[l] /= sum;
            for (int v = 0; v < d_v; v++) {
                float acc = 0.0f;
                for (int l = 0; l < d_c; l++) acc += o_lat[l] * uv[l * d_v + v];
                out[(b * H + h) * d_v + v] = acc;
            }
        }
    }
    free(q_lat); free(o_lat); free(p);
}
