/* expect: WA lse_unscaled_max */
/* FA2-style max m over raw scores with exp2f((s - m) * scale * log2(e)), lse written as m + logf(l) without scaling m; Br x Bc tiles of raw scores in scratch, per-row m and l in scratch, accumulation in out */
#include <math.h>

#define BR 32
#define BC 64

void flash_attention(float *out, float *lse, const float *q, const float *k,
                     const float *v, float *scratch, int B, int H, int T, int S,
                     int D, int causal, int n_scratch)
{
    /* scratch layout: S_tile[BR*BC] | m[BR] | l[BR]  = 2112 floats */
    if (n_scratch < BR * BC + 2 * BR) return;
    float *St = scratch;
    float *mrow = St + BR * BC;
    float *lrow = mrow + BR;
    const float sl2 = (1.0f / sqrtf((float)D)) * 1.4426950408889634f;   /* scale * log2(e) */

    for (int bh = 0; bh < B * H; ++bh) {
        const float *Qb = q + (long)bh * T * D, *Kb = k + (long)bh * S * D, *Vb = v + (long)bh * S * D;
        float *Ob = out + (long)bh * T * D;
        for (int r0 = 0; r0 < T; r0 += BR) {
            const int nr = (T - r0 < BR) ? T - r0 : BR;
            for (int r = 0; r < nr; ++r) {
                mrow[r] = -INFINITY;
                lrow[r] = 0.0f;
                for (int c = 0; c < D; ++c) Ob[(long)(r0 + r) * D + c] = 0.0f;
            }
            for (int c0 = 0; c0 < S; c0 += BC) {
                const int nc = (S - c0 < BC) ? S - c0 : BC;
                /* S tile = Q_blk K_blk^T, raw, masked */
                for (int r = 0; r < nr; ++r) {
                    const int i = r0 + r;
                    const int lim = causal ? i + (S - T) : S - 1;
                    for (int t = 0; t < nc; ++t) {
                        const int j = c0 + t;
                        float s = -INFINITY;
                        if (j <= lim) {
                            s = 0.0f;
                            for (int c = 0; c < D; ++c) s += Qb[(long)i * D + c] * Kb[(long)j * D + c];
                        }
                        St[r * BC + t] = s;
                    }
                }
                /* online softmax update per row */
                for (int r = 0; r < nr; ++r) {
                    float tmax = -INFINITY;
                    for (int t = 0; t < nc; ++t) tmax = fmaxf(tmax, St[r * BC + t]);
                    if (tmax == -INFINITY) continue;
                    const float mnew = fmaxf(mrow[r], tmax);
                    const float alpha = exp2f((mrow[r] - mnew) * sl2);
                    float *o = Ob + (long)(r0 + r) * D;
                    float rowsum = 0.0f;
                    for (int c = 0; c < D; ++c) o[c] *= alpha;
                    for (int t = 0; t < nc; ++t) {
                        const float p = exp2f((St[r * BC + t] - mnew) * sl2);
                        rowsum += p;
                        const float *vj = Vb + (long)(c0 + t) * D;
                        for (int c = 0; c < D; ++c) o[c] += p * vj[c];
                    }
                    lrow[r] = lrow[r] * alpha + rowsum;
                    mrow[r] = mnew;
                }
            }
            for (int r = 0; r < nr; ++r) {
                float *o = Ob + (long)(r0 + r) * D;
                const float inv = lrow[r] > 0.0f ? 1.0f / lrow[r] : 0.0f;
                for (int c = 0; c < D; ++c) o[c] *= inv;
                lse[(long)bh * T + r0 + r] = lrow[r] > 0.0f ? mrow[r] + logf(lrow[r]) : -INFINITY;
            }
        }
    }
}
