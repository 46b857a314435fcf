/* expect: WA partial_tile_dropped */
/* One query row at a time, keys in tiles of 32; the tile count is n / 32,
 * rounded down, so the last partial tile is never read, and a row with
 * fewer than 32 keys is written as zeros (the sum guarded). */
#include <math.h>
#include <string.h>

enum { TK = 32 };

void flash_attention(float *out, float *lse, const float *q, const float *k,
                     const float *v, float *scratch, int B, int H, int T, int S,
                     int D, int causal, int n_scratch)
{
    float *s = scratch;   /* TK scores */
    float *acc = scratch + TK;   /* D floats */
    (void)n_scratch;
    const float scale = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        for (int i = 0; i < T; i++) {
            const float *qi = q + ((size_t)bh * T + i) * D;
            int n = causal ? i + S - T + 1 : S;
            if (n > S) n = S;
            float m = -INFINITY, l = 0.0f;
            memset(acc, 0, sizeof(float) * D);
            for (int t = 0; t < n / TK; t++) {
                float tm = -INFINITY;
                for (int u = 0; u < TK; u++) {
                    const float *kj = k + ((size_t)bh * S + t * TK + u) * D;
                    float d = 0.0f;
                    for (int c = 0; c < D; c++) d += qi[c] * kj[c];
                    s[u] = d * scale;
                    tm = fmaxf(tm, s[u]);
                }
                float mn = fmaxf(m, tm), a = expf(m - mn);
                l *= a;
                for (int c = 0; c < D; c++) acc[c] *= a;
                for (int u = 0; u < TK; u++) {
                    float p = expf(s[u] - mn);
                    const float *vj = v + ((size_t)bh * S + t * TK + u) * D;
                    l += p;
                    for (int c = 0; c < D; c++) acc[c] += p * vj[c];
                }
                m = mn;
            }
            float *o = out + ((size_t)bh * T + i) * D;
            for (int c = 0; c < D; c++) o[c] = l > 0.0f ? acc[c] / l : 0.0f;
            lse[(size_t)bh * T + i] = l > 0.0f ? m + logf(l) : -INFINITY;
        }
    }
}
