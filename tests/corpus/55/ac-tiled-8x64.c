/* expect: AC */
/* Tiled FlashAttention with BR = 8 query rows and BC = 64 keys per tile: the 8 x 64 score tile, running max and sum live in scratch (n_scratch floats); whole tiles past the causal edge are skipped. */
#include <math.h>

#define BR 8
#define BC 64

void flash_attention(float *out, float *lse, const float *q, const float *k,
                     const float *v, float *scratch, int B, int H, int T, int S,
                     int D, int causal, int n_scratch)
{
    if (n_scratch < BR * BC + 2 * BR) return;   /* never in the judge: 4096 */
    float *P = scratch, *M = scratch + BR * BC, *L = M + BR;
    const float scale = 1.0f / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (long)bh * T * D, *K = k + (long)bh * S * D, *V = v + (long)bh * S * D;
        float *O = out + (long)bh * T * D;
        for (int i0 = 0; i0 < T; i0 += BR) {
            int rows = T - i0 < BR ? T - i0 : BR;
            for (int r = 0; r < rows; r++) {
                M[r] = -INFINITY;
                L[r] = 0.0f;
                for (int c = 0; c < D; c++) O[(i0 + r) * D + c] = 0.0f;
            }
            int j_end = causal ? i0 + rows - 1 + S - T + 1 : S;   /* past the last row's edge */
            if (j_end > S) j_end = S;
            for (int j0 = 0; j0 < j_end; j0 += BC) {
                int cols = j_end - j0 < BC ? j_end - j0 : BC;
                for (int r = 0; r < rows; r++) {
                    int i = i0 + r, edge = causal ? i + S - T : S - 1;
                    float mt = -INFINITY;
                    for (int t = 0; t < cols; t++) {
                        float s = -INFINITY;
                        if (j0 + t <= edge) {
                            s = 0.0f;
                            for (int c = 0; c < D; c++) s += Q[i * D + c] * K[(j0 + t) * D + c];
                            s *= scale;
                        }
                        P[r * BC + t] = s;
                        mt = fmaxf(mt, s);
                    }
                    if (mt == -INFINITY) continue;
                    float mn = fmaxf(M[r], mt), a = expf(M[r] - mn);
                    L[r] *= a;
                    for (int c = 0; c < D; c++) O[i * D + c] *= a;
                    for (int t = 0; t < cols; t++) {
                        float p = expf(P[r * BC + t] - mn);
                        L[r] += p;
                        for (int c = 0; c < D; c++) O[i * D + c] += p * V[(j0 + t) * D + c];
                    }
                    M[r] = mn;
                }
            }
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < D; c++) O[(i0 + r) * D + c] /= L[r];
                lse[(long)bh * T + i0 + r] = M[r] + logf(L[r]);
            }
        }
    }
}
