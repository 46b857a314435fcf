/* expect: WA no_rescale */
/* One pass over the cache as FlashMLA does it: a running max, sum and latent
 * sum per (batch, head). When the max moves up, the new terms use it, but
 * what was summed before keeps the old max. */
#include <math.h>
#include <stdlib.h>

void mla_decode(float *out, const float *q_nope, const float *q_pe, const float *c,
                const float *k_pe, const int *len, const float *w_uk, const float *w_uv,
                int B, int H, int S, int d_c, int d_nope, int d_r, int d_v)
{
    const float sc = 1.0f / sqrtf((float)(d_nope + d_r));
    float *ql = malloc(sizeof(float) * (size_t)d_c * 2), *ol = ql + d_c;
    for (int bh = 0; bh < B * H; bh++) {
        int b = bh / H, h = bh % H;
        const float *qn = q_nope + (size_t)bh * d_nope, *qr = q_pe + (size_t)bh * d_r;
        const float *uk = w_uk + (size_t)h * d_c * d_nope, *uv = w_uv + (size_t)h * d_c * d_v;
        for (int l = 0; l < d_c; l++) {
            const float *row = uk + (size_t)l * d_nope;
            float a = 0.0f;
            for (int i = 0; i < d_nope; i++) a += row[i] * qn[i];
            ql[l] = a;
            ol[l] = 0.0f;
        }
        float run_max = -INFINITY, run_sum = 0.0f;
        for (int j = 0; j < len[b]; j++) {
            const float *cj = c + ((size_t)b * S + j) * d_c, *kj = k_pe + ((size_t)b * S + j) * d_r;
            float x = 0.0f;
            for (int l = 0; l < d_c; l++) x += ql[l] * cj[l];
            for (int r = 0; r < d_r; r++) x += qr[r] * kj[r];
            x *= sc;
            if (x > run_max) run_max = x;
            float w = expf(x - run_max);
            run_sum += w;
            for (int l = 0; l < d_c; l++) ol[l] += w * cj[l];
        }
        for (int v = 0; v < d_v; v++) {
            float a = 0.0f;
            for (int l = 0; l < d_c; l++) a += ol[l] * uv[(size_t)l * d_v + v];
            out[(size_t)bh * d_v + v] = a / run_sum;
        }
    }
    free(ql);
}
