/* expect: WA lse_last_tile_max */
/* lse is written as tmax + log(l) using the last tile's max instead of the running max m. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TILE 64

void flash_attention(float *out, float *lse, const float *q, const float *k,
                     const float *v, float *scratch, int B, int H, int T, int S,
                     int D, int causal, int n_scratch)
{
    float *p = scratch;   /* one tile of scores for the current query */
    float sc = 1.0f / sqrtf((float)D);
    (void)n_scratch;
    for (int bh = 0; bh < B * H; bh++) {
        for (int i = 0; i < T; i++) {
            const float *qi = q + ((size_t)bh * T + i) * D;
            float *oi = out + ((size_t)bh * T + i) * D;
            int nkeys = causal ? i + S - T + 1 : S;
            int ntiles = (nkeys + TILE - 1) / TILE;
            float m = -INFINITY, l = 0.0f, tmax = -INFINITY;
            for (int c = 0; c < D; c++) oi[c] = 0.0f;
            for (int tt = 0; tt < ntiles; tt++) {
                int j0 = tt * TILE;
                int n = nkeys - j0;
                if (n > TILE) n = TILE;
                tmax = -INFINITY;
                for (int t = 0; t < n; t++) {
                    const float *kj = k + ((size_t)bh * S + j0 + t) * D;
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qi[c] * kj[c];
                    s *= sc;
                    p[t] = s;
                    if (s > tmax) tmax = s;
                }
                float mnew = m > tmax ? m : tmax;
                float corr = expf(m - mnew);
                l *= corr;
                for (int c = 0; c < D; c++) oi[c] *= corr;
                for (int t = 0; t < n; t++) {
                    float e = expf(p[t] - mnew);
                    const float *vj = v + ((size_t)bh * S + j0 + t) * D;
                    l += e;
                    for (int c = 0; c < D; c++) oi[c] += e * vj[c];
                }
                m = mnew;
            }
            for (int c = 0; c < D; c++) oi[c] /= l;
            lse[(size_t)bh * T + i] = tmax + logf(l);
        }
    }
}
