/* expect: WA rope_key_batch_offset */
/* Absorbed MLA decode with small helpers; the latent rows are found per
 * sequence, the rotary keys from the start of k_pe. */
#include <math.h>
#include <stdlib.h>

static float dotp(const float *a, const float *b, int n)
{
    float s = 0.0f;
    for (int i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

void mla_decode(float *out, const float *q_nope, const float *q_pe, const float *c,
                const float *k_pe, const int *len, const float *w_uk, const float *w_uv,
                int B, int H, int S, int d_c, int d_nope, int d_r, int d_v)
{
    float *ql = malloc(sizeof(float) * d_c), *ol = malloc(sizeof(float) * d_c), *w = malloc(sizeof(float) * S);
    float sc = 1.0f / sqrtf((float)(d_nope + d_r));
    for (int b = 0; b < B; b++) {
        const float *lat = c + (size_t)b * S * d_c;
        for (int h = 0; h < H; h++) {
            const float *qn = q_nope + ((size_t)b * H + h) * d_nope, *qr = q_pe + ((size_t)b * H + h) * d_r;
            for (int l = 0; l < d_c; l++) ql[l] = dotp(w_uk + ((size_t)h * d_c + l) * d_nope, qn, d_nope);
            float top = -INFINITY, tot = 0.0f;
            for (int j = 0; j < len[b]; j++) {
                w[j] = sc * (dotp(ql, lat + (size_t)j * d_c, d_c) + dotp(qr, k_pe + (size_t)j * d_r, d_r));
                top = fmaxf(top, w[j]);
            }
            for (int l = 0; l < d_c; l++) ol[l] = 0.0f;
            for (int j = 0; j < len[b]; j++) {
                w[j] = expf(w[j] - top);
                tot += w[j];
            }
            for (int j = 0; j < len[b]; j++)
                for (int l = 0; l < d_c; l++) ol[l] += w[j] / tot * lat[(size_t)j * d_c + l];
            for (int e = 0; e < d_v; e++) {
                float y = 0.0f;
                for (int l = 0; l < d_c; l++) y += ol[l] * w_uv[((size_t)h * d_c + l) * d_v + e];
                out[((size_t)b * H + h) * d_v + e] = y;
            }
        }
    }
    free(ql);
    free(ol);
    free(w);
}
