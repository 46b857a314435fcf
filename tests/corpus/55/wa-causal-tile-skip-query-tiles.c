/* expect: WA causal_tile_skip_no_offset */
/* Query tiles of 16 rows only walk the keys up to the tile's last row, min(i0 + 16, T), the offset S - T left out of that bound (the per-key test has it). */
#include <math.h>
#include <string.h>

#define BR 16
#define BC 32

static inline float dot4(const float *a, const float *b, int D)
{
    float s = 0.0f;
    int c = 0;
    for (; c + 4 <= D; c += 4)
        s += a[c] * b[c] + a[c + 1] * b[c + 1] + a[c + 2] * b[c + 2] + a[c + 3] * b[c + 3];
    for (; c < D; c++) s += a[c] * b[c];
    return s;
}

void flash_attention(float *out, float *lse, const float *q, const float *k,
                     const float *v, float *scratch, int B, int H, int T, int S,
                     int D, int causal, int n_scratch)
{
    (void)n_scratch;
    float *P = scratch;                 /* BR x BC scores */
    float *M = scratch + BR * BC;       /* BR running maxima */
    float *L = M + BR;                  /* BR running sums */
    const float scale = 1.0f / sqrtf((float)D);
    const int off = S - T;

    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (long)bh * T * D;
        const float *K = k + (long)bh * S * D;
        const float *V = v + (long)bh * S * D;
        float *O = out + (long)bh * T * D;
        for (int i0 = 0; i0 < T; i0 += BR) {
            int nr = T - i0 < BR ? T - i0 : BR;
            for (int r = 0; r < nr; r++) { M[r] = -INFINITY; L[r] = 0.0f; }
            memset(O + (long)i0 * D, 0, sizeof(float) * nr * D);
            /* causal: nothing past this tile's last row is visible */
            int kend = causal ? i0 + nr : S;
            for (int j0 = 0; j0 < kend; j0 += BC) {
                int nc = kend - j0 < BC ? kend - j0 : BC;
                for (int r = 0; r < nr; r++) {
                    const float *qi = Q + (long)(i0 + r) * D;
                    int last = causal ? i0 + r + off : S - 1;
                    float *pr = P + r * BC;
                    float tm = -INFINITY;
                    for (int t = 0; t < nc; t++) {
                        int j = j0 + t;
                        float s = j <= last ? dot4(qi, K + (long)j * D, D) * scale : -INFINITY;
                        pr[t] = s;
                        tm = s > tm ? s : tm;
                    }
                    if (tm == -INFINITY) continue;
                    float mn = M[r] > tm ? M[r] : tm;
                    float a = expf(M[r] - mn);
                    float *o = O + (long)(i0 + r) * D;
                    L[r] *= a;
                    for (int c = 0; c < D; c++) o[c] *= a;
                    for (int t = 0; t < nc; t++) {
                        float p = expf(pr[t] - mn);
                        const float *vj = V + (long)(j0 + t) * D;
                        L[r] += p;
                        for (int c = 0; c < D; c++) o[c] += p * vj[c];
                    }
                    M[r] = mn;
                }
            }
            for (int r = 0; r < nr; r++) {
                float *o = O + (long)(i0 + r) * D;
                float inv = 1.0f / L[r];
                for (int c = 0; c < D; c++) o[c] *= inv;
                lse[(long)bh * T + i0 + r] = M[r] + logf(L[r]);
            }
        }
    }
}
