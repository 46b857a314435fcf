/* att_ref_mla.c: the reference of multi-head latent attention at decode
 * (exercise 61, DeepSeek-V2/V3), in its absorbed form: W_UK folded into
 * the query and W_UV applied after the weighted sum of latents, so no
 * per-head key or value is ever made. Plain loops, double accumulation, the
 * max from -INFINITY; semantics in att.h. */
#include <math.h>
#include "att.h"

size_t att_mla_ref_scratch(int S, int d_c)
{
    return (size_t)S + 2 * (size_t)d_c;
}

att_status att_mla_decode_ref(float *out, const float *q_nope, const float *q_pe,
                              const float *c, const float *k_pe, const int *len,
                              const float *w_uk, const float *w_uv, int B, int H, int S,
                              int d_c, int d_nope, int d_r, int d_v, double *scratch)
{
    if (B < 1 || H < 1 || S < 1 || d_c < 1 || d_nope < 1 || d_r < 1 || d_v < 1) return ATT_EBADSHAPE;
    for (int b = 0; b < B; b++)   /* all checked first: an error touches nothing */
        if (len[b] < 1 || len[b] > S) return ATT_EBADSHAPE;
    double scale = 1.0 / sqrt((double)(d_nope + d_r));
    double *q_lat = scratch, *o_lat = scratch + d_c, *s = scratch + 2 * (size_t)d_c;
    for (int b = 0; b < B; b++) {
        const float *cb = c + (size_t)b * S * d_c, *kb = k_pe + (size_t)b * S * d_r;
        for (int h = 0; h < H; h++) {
            size_t bh = (size_t)b * H + h;
            const float *qn = q_nope + bh * d_nope, *qr = q_pe + bh * d_r;
            const float *uk = w_uk + (size_t)h * d_c * d_nope, *uv = w_uv + (size_t)h * d_c * d_v;
            /* q_lat = W_UK_h q_nope: then q_lat . c_j = q_nope . (c_j W_UK_h). */
            for (int l = 0; l < d_c; l++) {
                double acc = 0.0;
                for (int p = 0; p < d_nope; p++) acc += (double)uk[(size_t)l * d_nope + p] * qn[p];
                q_lat[l] = acc;
            }
            double max = -INFINITY, sum = 0.0;
            for (int j = 0; j < len[b]; j++) {
                double dot = 0.0;
                for (int l = 0; l < d_c; l++) dot += q_lat[l] * cb[(size_t)j * d_c + l];
                for (int r = 0; r < d_r; r++) dot += (double)qr[r] * kb[(size_t)j * d_r + r];
                s[j] = dot * scale;
                if (s[j] > max) max = s[j];
            }
            for (int l = 0; l < d_c; l++) o_lat[l] = 0.0;
            for (int j = 0; j < len[b]; j++) {
                double e = exp(s[j] - max);
                sum += e;
                for (int l = 0; l < d_c; l++) o_lat[l] += e * cb[(size_t)j * d_c + l];
            }
            /* out_h = (sum_j p_j c_j) W_UV_h = sum_j p_j (c_j W_UV_h). */
            for (int v = 0; v < d_v; v++) {
                double acc = 0.0;
                for (int l = 0; l < d_c; l++) acc += o_lat[l] * uv[(size_t)l * d_v + v];
                out[bh * d_v + v] = (float)(acc / sum);
            }
        }
    }
    return ATT_OK;
}
