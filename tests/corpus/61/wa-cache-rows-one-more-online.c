/* expect: WA cache_rows_off_by_one */
/* Absorbed, one online pass; the key loop runs j <= len[b], one stale row past the cache. */
#include <math.h>

/* online softmax, VLAs, pointer walking */
void mla_decode(float *out, const float *q_nope, const float *q_pe, const float *c,
                const float *k_pe, const int *len, const float *w_uk, const float *w_uv,
                int B, int H, int S, int d_c, int d_nope, int d_r, int d_v)
{
    const float inv = 1.0f / sqrtf((float)(d_nope + d_r));
    float ql[d_c], ol[d_c];
    const float *qn = q_nope, *qr = q_pe;
    float *o = out;
    for (int b = 0; b < B; b++) {
        for (int h = 0; h < H; h++, qn += d_nope, qr += d_r, o += d_v) {
            const float *W = w_uk + (long)h * d_c * d_nope;
            for (int l = 0; l < d_c; l++, W += d_nope) {
                float a = 0; for (int i = 0; i < d_nope; i++) a += W[i] * qn[i];
                ql[l] = a;
            }
            float m = -INFINITY, den = 0;
            for (int l = 0; l < d_c; l++) ol[l] = 0;
            const float *cj = c + (long)b * S * d_c, *kj = k_pe + (long)b * S * d_r;
            for (int j = 0; j <= len[b] && j < S; j++, cj += d_c, kj += d_r) {
                float s = 0;
                for (int l = 0; l < d_c; l++) s += ql[l] * cj[l];
                for (int r = 0; r < d_r; r++) s += qr[r] * kj[r];
                s *= inv;
                float mn = s > m ? s : m;
                float corr = expf(m - mn), p = expf(s - mn);
                den = den * corr + p;
                for (int l = 0; l < d_c; l++) ol[l] = ol[l] * corr + p * cj[l];
                m = mn;
            }
            const float *U = w_uv + (long)h * d_c * d_v;
            for (int v = 0; v < d_v; v++) {
                float a = 0; for (int l = 0; l < d_c; l++) a += ol[l] * U[l * d_v + v];
                o[v] = a / den;
            }
        }
    }
}
