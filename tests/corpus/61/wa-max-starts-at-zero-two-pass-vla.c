/* expect: WA max_starts_at_zero */
/* Absorbed, two passes in float with VLAs for q_lat, o_lat and the weights; the running max starts at 0.0f, so rows of very negative scores underflow to 0/0. */
#include <math.h>
#include <stddef.h>

void mla_decode(float *out, const float *q_nope, const float *q_pe, const float *c,
                const float *k_pe, const int *len, const float *w_uk, const float *w_uv,
                int B, int H, int S, int d_c, int d_nope, int d_r, int d_v)
{
    const float inv = 1.0f / sqrtf((float)(d_nope + d_r));
    for (int b = 0; b < B; b++) {
        const int n = len[b];
        const float *cb = c + (size_t)b * S * d_c;
        const float *rb = k_pe + (size_t)b * S * d_r;
        for (int h = 0; h < H; h++) {
            const float *qn = q_nope + ((size_t)b * H + h) * d_nope;
            const float *qp = q_pe + ((size_t)b * H + h) * d_r;
            const float *Wk = w_uk + (size_t)h * d_c * d_nope;
            const float *Wv = w_uv + (size_t)h * d_c * d_v;
            float ql[d_c], ol[d_c], w[n];

            for (int l = 0; l < d_c; l++) {
                float t = 0.0f;
                for (int i = 0; i < d_nope; i++) t += Wk[l * d_nope + i] * qn[i];
                ql[l] = t;
            }

            float mx = 0.0f;
            for (int j = 0; j < n; j++) {
                float t = 0.0f;
                for (int l = 0; l < d_c; l++) t += ql[l] * cb[j * d_c + l];
                for (int r = 0; r < d_r; r++) t += qp[r] * rb[j * d_r + r];
                w[j] = t * inv;
                if (w[j] > mx) mx = w[j];
            }

            float z = 0.0f;
            for (int j = 0; j < n; j++) {
                w[j] = expf(w[j] - mx);
                z += w[j];
            }
            for (int l = 0; l < d_c; l++) {
                float t = 0.0f;
                for (int j = 0; j < n; j++) t += w[j] * cb[j * d_c + l];
                ol[l] = t / z;
            }

            float *o = out + ((size_t)b * H + h) * d_v;
            for (int e = 0; e < d_v; e++) {
                float t = 0.0f;
                for (int l = 0; l < d_c; l++) t += ol[l] * Wv[l * d_v + e];
                o[e] = t;
            }
        }
    }
}
