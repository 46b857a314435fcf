/* expect: WA lse_exp_of_max */
/* Tiled as the reference; the lse undoes the running max first: log(l * exp(m)), inf past a max of 88. */
#include <math.h>

enum { BR = 16, BC = 32 };

void flash_attention(float *out, float *lse, const float *q, const float *k,
                     const float *v, float *scratch, int B, int H, int T, int S,
                     int D, int causal, int n_scratch)
{
    float *tile = scratch, *m = tile + BR * BC, *l = m + BR;   /* 16*32 + 32 floats */
    (void)n_scratch;   /* 4096 in every case: more than the 544 used here */
    float scale = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *qb = q + (long)bh * T * D, *kb = k + (long)bh * S * D, *vb = v + (long)bh * S * D;
        float *ob = out + (long)bh * T * D;
        for (int i0 = 0; i0 < T; i0 += BR) {
            int nr = T - i0 < BR ? T - i0 : BR;
            for (int r = 0; r < nr; r++) {
                m[r] = -INFINITY;
                l[r] = 0.0f;
                for (int c = 0; c < D; c++) ob[(i0 + r) * D + c] = 0.0f;
            }
            for (int j0 = 0; j0 < S; j0 += BC) {
                int nc = S - j0 < BC ? S - j0 : BC;
                for (int r = 0; r < nr; r++) {
                    int i = i0 + r, last = causal ? i + S - T : S - 1;   /* bottom-right causal */
                    float tmax = -INFINITY;
                    for (int t = 0; t < nc; t++) {
                        float s = -INFINITY;
                        if (j0 + t <= last) {
                            s = 0.0f;
                            for (int c = 0; c < D; c++) s += qb[i * D + c] * kb[(j0 + t) * D + c];
                            s *= scale;
                        }
                        tile[r * BC + t] = s;
                        if (s > tmax) tmax = s;
                    }
                    if (tmax == -INFINITY) continue;   /* nothing seen in this tile */
                    float m2 = m[r] > tmax ? m[r] : tmax, corr = expf(m[r] - m2);
                    float *o = ob + i * D;
                    for (int c = 0; c < D; c++) o[c] *= corr;
                    l[r] *= corr;
                    for (int t = 0; t < nc; t++) {
                        float p = expf(tile[r * BC + t] - m2);   /* exp(-inf) = 0 */
                        l[r] += p;
                        for (int c = 0; c < D; c++) o[c] += p * vb[(j0 + t) * D + c];
                    }
                    m[r] = m2;
                }
            }
            for (int r = 0; r < nr; r++) {
                float *o = ob + (i0 + r) * D;
                for (int c = 0; c < D; c++) o[c] = l[r] > 0.0f ? o[c] / l[r] : 0.0f;
                lse[(long)bh * T + i0 + r] = l[r] > 0.0f ? logf(l[r] * expf(m[r])) : -INFINITY;
            }
        }
    }
}
