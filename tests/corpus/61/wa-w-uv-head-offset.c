/* expect: WA weight_head_offset */
/* Per-head W_UV offset is h * d_v instead of h * d_c * d_v, so heads > 0 read a shifted slice of head 0's matrix. */
#include <math.h>
#include <stdlib.h>

void mla_decode(float *out, const float *q_nope, const float *q_pe, const float *c,
                const float *k_pe, const int *len, const float *w_uk, const float *w_uv,
                int B, int H, int S, int d_c, int d_nope, int d_r, int d_v)
{
    float *qlat = (float *)calloc((size_t)H * d_c, sizeof(float));
    float *olat = (float *)calloc((size_t)H * d_c, sizeof(float));
    float *sc = (float *)malloc(sizeof(float) * (size_t)H * (S + 1));
    float sm = sqrtf((float)(d_nope + d_r));
    for (int b = 0; b < B; b++) {
        int n = len[b];
        /* absorb W_UK for every head of this sequence */
        for (int h = 0; h < H; h++)
            for (int l = 0; l < d_c; l++) {
                float t = 0.0f;
                for (int i = 0; i < d_nope; i++)
                    t += w_uk[h * d_c * d_nope + l * d_nope + i] * q_nope[b * H * d_nope + h * d_nope + i];
                qlat[h * d_c + l] = t;
            }
        /* scores: keys outer, heads inner */
        for (int j = 0; j < n; j++) {
            const float *cj = &c[b * S * d_c + j * d_c];
            const float *kj = &k_pe[b * S * d_r + j * d_r];
            for (int h = 0; h < H; h++) {
                float t = 0.0f;
                for (int l = 0; l < d_c; l++) t += qlat[h * d_c + l] * cj[l];
                for (int r = 0; r < d_r; r++) t += q_pe[b * H * d_r + h * d_r + r] * kj[r];
                sc[h * S + j] = t / sm;
            }
        }
        for (int h = 0; h < H; h++) {
            float *s = &sc[h * S];
            float mx = s[0];
            for (int j = 1; j < n; j++) mx = fmaxf(mx, s[j]);
            float tot = 0.0f;
            for (int j = 0; j < n; j++) { s[j] = expf(s[j] - mx); tot += s[j]; }
            for (int l = 0; l < d_c; l++) olat[h * d_c + l] = 0.0f;
            for (int j = 0; j < n; j++)
                for (int l = 0; l < d_c; l++) olat[h * d_c + l] += s[j] * c[b * S * d_c + j * d_c + l];
            for (int v = 0; v < d_v; v++) {
                float t = 0.0f;
                for (int l = 0; l < d_c; l++) t += olat[h * d_c + l] * w_uv[h * d_v + l * d_v + v];
                out[b * H * d_v + h * d_v + v] = t / tot;
            }
        }
    }
    free(qlat); free(olat); free(sc);
}
