/* expect: RE */
/* A 64 x 64 tile of scores fills scratch, and the running max and sum per row are kept after it: past its end. */
#include <math.h>
enum { BR = 64, BC = 64 };
void flash_attention(float *out, float *lse, const float *q, const float *k,
                     const float *v, float *scratch, int B, int H, int T, int S,
                     int D, int causal, int n_scratch)
{
    (void)n_scratch;
    float *tile = scratch, *m = tile + BR*BC, *l = m + BR;
    float scale = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B*H; bh++) for (int i0 = 0; i0 < T; i0 += BR) {
        int nr = T - i0 < BR ? T - i0 : BR;
        for (int r = 0; r < nr; r++) { m[r] = -INFINITY; l[r] = 0; for (int c = 0; c < D; c++) out[(bh*T+i0+r)*D+c] = 0; }
        for (int j0 = 0; j0 < S; j0 += BC) {
            int nc = S - j0 < BC ? S - j0 : BC;
            for (int r = 0; r < nr; r++) {
                int i = i0 + r, last = causal ? i + S - T : S - 1; float tm = -INFINITY;
                for (int t = 0; t < nc; t++) { float s = -INFINITY; if (j0 + t <= last) { s = 0; for (int c = 0; c < D; c++) s += q[(bh*T+i)*D+c]*k[(bh*S+j0+t)*D+c]; s *= scale; } tile[r*BC+t] = s; if (s > tm) tm = s; }
                if (tm == -INFINITY) continue;
                float m2 = fmaxf(m[r], tm), cr = expf(m[r]-m2); float *o = out + (bh*T+i)*D;
                for (int c = 0; c < D; c++) o[c] *= cr; l[r] *= cr;
                for (int t = 0; t < nc; t++) { float p = expf(tile[r*BC+t]-m2); l[r] += p; for (int c = 0; c < D; c++) o[c] += p*v[(bh*S+j0+t)*D+c]; }
                m[r] = m2;
            }
        }
        for (int r = 0; r < nr; r++) { float *o = out + (bh*T+i0+r)*D; for (int c = 0; c < D; c++) o[c] /= l[r]; lse[bh*T+i0+r] = m[r] + logf(l[r]); }
    }
}
