/* expect: WA max_starts_at_zero */
/* Un-absorbed, each key's k_nope and v made on the fly from its latent, one online softmax pass in float; the running max m starts at 0.0f instead of -INFINITY. */
#include <math.h>
#include <stdlib.h>

void mla_decode(float *out, const float *q_nope, const float *q_pe, const float *c,
                const float *k_pe, const int *len, const float *w_uk, const float *w_uv,
                int B, int H, int S, int d_c, int d_nope, int d_r, int d_v)
{
    float *acc = malloc(sizeof(float) * d_v);
    float *vj = malloc(sizeof(float) * d_v);
    float sc = 1.0f / sqrtf((float)(d_nope + d_r));
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *qn = q_nope + (b * H + h) * d_nope;
            const float *qp = q_pe + (b * H + h) * d_r;
            float m = 0.0f, l = 0.0f;
            for (int e = 0; e < d_v; e++) acc[e] = 0.0f;
            for (int j = 0; j < len[b]; j++) {
                const float *cj = c + (b * S + j) * d_c;
                float s = 0.0f;
                for (int i = 0; i < d_nope; i++) {
                    float kn = 0.0f;   /* k_nope[i] = sum_x c_j[x] W_UK[x][i] */
                    for (int x = 0; x < d_c; x++) kn += cj[x] * w_uk[(h * d_c + x) * d_nope + i];
                    s += qn[i] * kn;
                }
                for (int r = 0; r < d_r; r++) s += qp[r] * k_pe[(b * S + j) * d_r + r];
                s *= sc;
                for (int e = 0; e < d_v; e++) {
                    float t = 0.0f;
                    for (int x = 0; x < d_c; x++) t += cj[x] * w_uv[(h * d_c + x) * d_v + e];
                    vj[e] = t;
                }
                float nm = fmaxf(m, s);
                float a = expf(m - nm), p = expf(s - nm);
                l = l * a + p;
                for (int e = 0; e < d_v; e++) acc[e] = acc[e] * a + p * vj[e];
                m = nm;
            }
            for (int e = 0; e < d_v; e++) out[(b * H + h) * d_v + e] = acc[e] / l;
        }
    free(acc);
    free(vj);
}
