/* expect: WA running_max_from_tile */
/* The new max is taken from the current tile alone (m' = tile max) instead of max(m, tile max), so exp(m - m') overflows when an earlier tile had a much larger score. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BR 16
#define BC 32

void flash_attention(float *out, float *lse, const float *q, const float *k,
                     const float *v, float *scratch, int B, int H, int T, int S,
                     int D, int causal, int n_scratch)
{
    float *S_tile = scratch;              /* BR x BC scores */
    float *row_max = scratch + BR * BC;   /* BR */
    float *row_sum = row_max + BR;        /* BR */
    const float scale = 1.0f / sqrtf((float)D);
    const int off = S - T;                /* bottom-right alignment */
    (void)n_scratch;

    for (int b = 0; b < B; b++) {
        for (int h = 0; h < H; h++) {
            const float *Q = q + ((size_t)(b * H + h) * T) * D;
            const float *K = k + ((size_t)(b * H + h) * S) * D;
            const float *V = v + ((size_t)(b * H + h) * S) * D;
            float *O = out + ((size_t)(b * H + h) * T) * D;
            float *L = lse + (size_t)(b * H + h) * T;

            for (int qs = 0; qs < T; qs += BR) {
                int qn = (T - qs < BR) ? T - qs : BR;
                for (int r = 0; r < qn; r++) {
                    row_max[r] = -INFINITY;
                    row_sum[r] = 0.0f;
                    memset(O + (size_t)(qs + r) * D, 0, sizeof(float) * D);
                }
                /* key tiles past the diagonal of this block are never needed */
                int kend = S;
                if (causal) {
                    kend = qs + qn + off;
                    if (kend > S) kend = S;
                }
                for (int ks = 0; ks < kend; ks += BC) {
                    int kn = (S - ks < BC) ? S - ks : BC;
                    for (int r = 0; r < qn; r++) {
                        const float *qi = Q + (size_t)(qs + r) * D;
                        for (int c = 0; c < kn; c++) {
                            const float *kj = K + (size_t)(ks + c) * D;
                            float dot = 0.0f;
                            for (int d = 0; d < D; d++) dot += qi[d] * kj[d];
                            if (causal && ks + c > qs + r + off)
                                dot = -INFINITY;
                            else
                                dot *= scale;
                            S_tile[r * BC + c] = dot;
                        }
                    }
                    for (int r = 0; r < qn; r++) {
                        float *sr = S_tile + r * BC;
                        float mt = -INFINITY;
                        for (int c = 0; c < kn; c++) if (sr[c] > mt) mt = sr[c];
                        if (mt == -INFINITY) continue;
                        float m_new = mt;
                        float alpha = expf(row_max[r] - m_new);
                        float *o = O + (size_t)(qs + r) * D;
                        row_sum[r] *= alpha;
                        for (int d = 0; d < D; d++) o[d] *= alpha;
                        for (int c = 0; c < kn; c++) {
                            float p = expf(sr[c] - m_new);
                            const float *vj = V + (size_t)(ks + c) * D;
                            row_sum[r] += p;
                            for (int d = 0; d < D; d++) o[d] += p * vj[d];
                        }
                        row_max[r] = m_new;
                    }
                }
                for (int r = 0; r < qn; r++) {
                    float *o = O + (size_t)(qs + r) * D;
                    float inv = 1.0f / row_sum[r];
                    for (int d = 0; d < D; d++) o[d] *= inv;
                    L[qs + r] = row_max[r] + logf(row_sum[r]);
                }
            }
        }
    }
}
