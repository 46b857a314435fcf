/* expect: WA max_over_hidden_keys */
/* One query row at a time, keys in tiles of 32 in scratch: the tile's max is taken before the causal mask zeroes the future keys' weights, so a hidden key can set it. */
#include <math.h>

#define BC 32

void flash_attention(float *out, float *lse, const float *q, const float *k,
                     const float *v, float *scratch, int B, int H, int T, int S,
                     int D, int causal, int n_scratch)
{
    (void)n_scratch;
    const float sc = 1.0f / sqrtf((float)D);
    float *p = scratch;           /* BC scores */
    float *acc = scratch + BC;    /* D sums */
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (long)bh * T * D, *K = k + (long)bh * S * D, *V = v + (long)bh * S * D;
        for (int i = 0; i < T; i++) {
            const int last = causal ? i + S - T : S - 1;
            float m = -INFINITY, l = 0.0f;
            for (int c = 0; c < D; c++) acc[c] = 0.0f;
            for (int j0 = 0; j0 <= last; j0 += BC) {
                const int n = S - j0 < BC ? S - j0 : BC;
                float tmax = -INFINITY;
                for (int t = 0; t < n; t++) {
                    float d = 0.0f;
                    for (int c = 0; c < D; c++) d += Q[i * D + c] * K[(j0 + t) * D + c];
                    p[t] = d * sc;
                    if (p[t] > tmax) tmax = p[t];
                }
                const float m2 = tmax > m ? tmax : m, corr = expf(m - m2);
                l *= corr;
                for (int c = 0; c < D; c++) acc[c] *= corr;
                for (int t = 0; t < n; t++) {
                    const float e = j0 + t <= last ? expf(p[t] - m2) : 0.0f;
                    l += e;
                    for (int c = 0; c < D; c++) acc[c] += e * V[(j0 + t) * D + c];
                }
                m = m2;
            }
            for (int c = 0; c < D; c++) out[((long)bh * T + i) * D + c] = acc[c] / l;
            lse[(long)bh * T + i] = m + logf(l);
        }
    }
}
