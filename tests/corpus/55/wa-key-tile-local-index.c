/* expect: WA key_tile_offset_missing */
/* FlashAttention forward, one query row at a time, keys in tiles of 16:
 * the tile's keys are copied to scratch, the scores computed from there. */
#include <math.h>

#define BK 16

void flash_attention(float *out, float *lse, const float *q, const float *k,
                     const float *v, float *scratch, int B, int H, int T, int S,
                     int D, int causal, int n_scratch)
{
    (void)n_scratch;
    float *kt = scratch;   /* BK rows of D */
    const float sc = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *Kh = k + (long)bh * S * D, *Vh = v + (long)bh * S * D;
        for (int i = 0; i < T; i++) {
            const float *qi = q + ((long)bh * T + i) * D;
            float *oi = out + ((long)bh * T + i) * D;
            int last = causal ? i + S - T : S - 1;
            float m = -INFINITY, l = 0.0f;
            for (int c = 0; c < D; c++) oi[c] = 0.0f;
            for (int j0 = 0; j0 <= last; j0 += BK) {
                int n = last - j0 + 1 < BK ? last - j0 + 1 : BK;
                for (int t = 0; t < n; t++)
                    for (int c = 0; c < D; c++) kt[t * D + c] = Kh[(long)t * D + c];
                for (int t = 0; t < n; t++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qi[c] * kt[t * D + c];
                    s *= sc;
                    float mn = fmaxf(m, s), r = expf(m - mn), e = expf(s - mn);
                    l = l * r + e;
                    for (int c = 0; c < D; c++) oi[c] = oi[c] * r + e * Vh[(long)(j0 + t) * D + c];
                    m = mn;
                }
            }
            if (l > 0.0f) {
                for (int c = 0; c < D; c++) oi[c] /= l;
                lse[(long)bh * T + i] = m + logf(l);
            } else {
                lse[(long)bh * T + i] = -INFINITY;
            }
        }
    }
}
