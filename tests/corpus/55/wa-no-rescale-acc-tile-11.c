/* expect: WA no_rescale_acc */
#include <math.h>
/* query blocks of 5 rows, key tiles of 11, exp2 domain */
#define BR 5
#define BC 11
void flash_attention(float *out, float *lse, const float *q, const float *k,
                     const float *v, float *scratch, int B, int H, int T, int S,
                     int D, int causal, int n_scratch)
{
    float *P = scratch, *M = P + BR * BC, *L = M + BR, *A = L + BR;  /* A: BR x D */
    const float c2 = 1.4426950408889634f / sqrtf((float)D);   /* log2(e)/sqrt(D) */
    (void)n_scratch;
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (long)bh * T * D, *K = k + (long)bh * S * D, *V = v + (long)bh * S * D;
        for (int i0 = 0; i0 < T; i0 += BR) {
            int nr = T - i0 < BR ? T - i0 : BR;
            for (int r = 0; r < nr; r++) { M[r] = -INFINITY; L[r] = 0; for (int c = 0; c < D; c++) A[r * D + c] = 0; }
            for (int j0 = 0; j0 < S; j0 += BC) {
                int nc = S - j0 < BC ? S - j0 : BC;
                for (int r = 0; r < nr; r++) {
                    int i = i0 + r; float tm = -INFINITY;
                    for (int t = 0; t < nc; t++) {
                        int j = j0 + t; float s = -INFINITY;
                        if (!(causal && j > i + S - T)) { s = 0; for (int c = 0; c < D; c++) s += Q[i * D + c] * K[j * D + c]; s *= c2; }
                        P[r * BC + t] = s; if (s > tm) tm = s;
                    }
                    if (tm == -INFINITY) continue;
                    float mn = M[r] > tm ? M[r] : tm, f = exp2f(M[r] - mn);
                    L[r] *= f; for (int c = 0; c < D; c++) A[r * D + c] *= 1.0f;
                    for (int t = 0; t < nc; t++) {
                        float p = exp2f(P[r * BC + t] - mn); L[r] += p;
                        for (int c = 0; c < D; c++) A[r * D + c] += p * V[(j0 + t) * D + c];
                    }
                    M[r] = mn;
                }
            }
            for (int r = 0; r < nr; r++) {
                for (int c = 0; c < D; c++) out[((long)bh * T + i0 + r) * D + c] = A[r * D + c] / L[r];
                lse[(long)bh * T + i0 + r] = (M[r] + log2f(L[r])) * 0.6931471805599453f;
            }
        }
    }
}
