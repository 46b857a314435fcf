/* expect: WA stats_not_reset */
/* The running max m and running sum l are set up once per (batch, head), above
 * the query-row loop, so each row starts from the previous row's statistics;
 * only the output accumulator is cleared for every row. */
#include <math.h>
#include <stddef.h>

#define TILE 64

void flash_attention(float *out, float *lse, const float *q, const float *k,
                     const float *v, float *scratch, int B, int H, int T, int S,
                     int D, int causal, int n_scratch)
{
    /* scratch: [TILE] scores, then [D] accumulator (D <= 17, far below 4096) */
    float *sc = scratch, *acc = scratch + TILE;
    (void)n_scratch;
    const float scale = 1.0f / sqrtf((float)D);

    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            size_t head = (size_t)b * H + h;
            const float *Q = q + head * T * D;
            const float *K = k + head * S * D;
            const float *V = v + head * S * D;
            float *O = out + head * T * D;
            float *L = lse + head * T;

            float m = -INFINITY;   /* running max   */
            float l = 0.0f;        /* running sum   */

            for (int i = 0; i < T; i++) {
                const float *qi = Q + (size_t)i * D;
                int nkeys = causal ? i + S - T + 1 : S;   /* bottom-right mask */
                for (int c = 0; c < D; c++) acc[c] = 0.0f;

                for (int j0 = 0; j0 < nkeys; j0 += TILE) {
                    int w = nkeys - j0 < TILE ? nkeys - j0 : TILE;
                    float tmax = -INFINITY;
                    for (int t = 0; t < w; t++) {
                        const float *kj = K + (size_t)(j0 + t) * D;
                        float s = 0.0f;
                        for (int c = 0; c < D; c++) s += qi[c] * kj[c];
                        sc[t] = s * scale;
                        if (sc[t] > tmax) tmax = sc[t];
                    }
                    float mnew = tmax > m ? tmax : m;
                    float alpha = expf(m - mnew);
                    l *= alpha;
                    for (int c = 0; c < D; c++) acc[c] *= alpha;
                    for (int t = 0; t < w; t++) {
                        float p = expf(sc[t] - mnew);
                        const float *vj = V + (size_t)(j0 + t) * D;
                        l += p;
                        for (int c = 0; c < D; c++) acc[c] += p * vj[c];
                    }
                    m = mnew;
                }

                float *oi = O + (size_t)i * D;
                for (int c = 0; c < D; c++) oi[c] = acc[c] / l;
                L[i] = m + logf(l);
            }
        }
}
