/* expect: WA partial_tile_dropped */
/* Blocks of 8 queries against tiles of 16 keys, the causal mask inside the
 * tile; the key loop runs while a whole tile fits in S (kb + 16 <= S), so
 * the keys past the last whole tile are dropped for every row. */
#include <math.h>
#include <string.h>

#define BQ 8
#define BK 16

void flash_attention(float *out, float *lse, const float *q, const float *k,
                     const float *v, float *scratch, int B, int H, int T, int S,
                     int D, int causal, int n_scratch)
{
    float *sc = scratch, *mx = sc + BQ * BK, *sum = mx + BQ;
    (void)n_scratch;
    const float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            size_t hq = ((size_t)b * H + h) * T, hk = ((size_t)b * H + h) * S;
            for (int q0 = 0; q0 < T; q0 += BQ) {
                int nq = T - q0 < BQ ? T - q0 : BQ;
                for (int r = 0; r < nq; r++) {
                    mx[r] = -INFINITY;
                    sum[r] = 0.0f;
                    memset(out + (hq + q0 + r) * D, 0, sizeof(float) * D);
                }
                for (int kb = 0; kb + BK <= S; kb += BK) {
                    for (int r = 0; r < nq; r++) {
                        const float *qi = q + (hq + q0 + r) * D;
                        for (int c = 0; c < BK; c++) {
                            const float *kj = k + (hk + kb + c) * D;
                            float d = 0.0f;
                            for (int e = 0; e < D; e++) d += qi[e] * kj[e];
                            sc[r * BK + c] = causal && kb + c > q0 + r + S - T ? -INFINITY : d * scale;
                        }
                    }
                    for (int r = 0; r < nq; r++) {
                        float *row = sc + r * BK, m = mx[r];
                        for (int c = 0; c < BK; c++) m = row[c] > m ? row[c] : m;
                        if (m == -INFINITY) continue;
                        float a = expf(mx[r] - m), *o = out + (hq + q0 + r) * D;
                        sum[r] *= a;
                        for (int e = 0; e < D; e++) o[e] *= a;
                        for (int c = 0; c < BK; c++) {
                            float p = expf(row[c] - m);
                            sum[r] += p;
                            for (int e = 0; e < D; e++) o[e] += p * v[(hk + kb + c) * D + e];
                        }
                        mx[r] = m;
                    }
                }
                for (int r = 0; r < nq; r++) {
                    float *o = out + (hq + q0 + r) * D;
                    for (int e = 0; e < D; e++) o[e] /= sum[r];
                    lse[hq + q0 + r] = mx[r] + logf(sum[r]);
                }
            }
        }
}
