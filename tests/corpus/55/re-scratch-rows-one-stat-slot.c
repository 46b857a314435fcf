/* expect: RE */
/* Scratch is cut into R = n_scratch / (S + 1) rows of S scores, one spare float per row, but two statistics per row (m and l) are stored after them, past the end of scratch when T is large and S small. */
#include <math.h>
#include <string.h>

void flash_attention(float *out, float *lse, const float *q, const float *k,
                     const float *v, float *scratch, int B, int H, int T, int S,
                     int D, int causal, int n_scratch)
{
    const float scale = 1.0f / sqrtf((float)D);
    const int R = n_scratch / (S + 1);      /* rows of S scores, plus the stats */
    float *P = scratch;                     /* R x S scores */
    float *st = scratch + (long)R * S;      /* per row: m, l */

    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (long)bh * T * D;
        const float *K = k + (long)bh * S * D;
        const float *V = v + (long)bh * S * D;
        float *O = out + (long)bh * T * D;
        for (int i0 = 0; i0 < T; i0 += R) {
            int nr = T - i0 < R ? T - i0 : R;
            /* pass 1: scores of the block, and each row's max */
            for (int r = 0; r < nr; r++) {
                const float *qi = Q + (long)(i0 + r) * D;
                int n = causal ? i0 + r + S - T + 1 : S;
                float *pr = P + (long)r * S, m = -INFINITY;
                for (int j = 0; j < n; j++) {
                    const float *kj = K + (long)j * D;
                    float s = 0.0f;
                    int c = 0;
                    for (; c + 2 <= D; c += 2) s += qi[c] * kj[c] + qi[c + 1] * kj[c + 1];
                    if (c < D) s += qi[c] * kj[c];
                    pr[j] = s * scale;
                    if (pr[j] > m) m = pr[j];
                }
                for (int j = n; j < S; j++) pr[j] = -INFINITY;
                st[2 * r] = m;
            }
            /* pass 2: exponentials in place and the row sums */
            for (int r = 0; r < nr; r++) {
                float *pr = P + (long)r * S, m = st[2 * r], l = 0.0f;
                for (int j = 0; j < S; j++) { pr[j] = expf(pr[j] - m); l += pr[j]; }
                st[2 * r + 1] = l;
            }
            /* pass 3: P V, key-major so each row of v is read once per block */
            memset(O + (long)i0 * D, 0, sizeof(float) * nr * D);
            for (int j = 0; j < S; j++) {
                const float *vj = V + (long)j * D;
                for (int r = 0; r < nr; r++) {
                    float p = P[(long)r * S + j];
                    if (p == 0.0f) continue;
                    float *o = O + (long)(i0 + r) * D;
                    for (int c = 0; c < D; c++) o[c] += p * vj[c];
                }
            }
            for (int r = 0; r < nr; r++) {
                float *o = O + (long)(i0 + r) * D, l = st[2 * r + 1];
                for (int c = 0; c < D; c++) o[c] /= l;
                lse[(long)bh * T + i0 + r] = st[2 * r] + logf(l);
            }
        }
    }
}
