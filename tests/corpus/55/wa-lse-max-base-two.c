/* expect: WA lse_base_two */
/* scores in base-2 units throughout, lse = m + log(l) with m still in base 2 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LOG2E 1.4426950408889634f
enum { BR = 16, BC = 32 };

/* exp(x) == exp2(x * log2(e)); folding log2(e) into the softmax scale saves
 * one multiply per score, as the CUDA kernels do. Statistics in double. */
void flash_attention(float *out, float *lse, const float *q, const float *k,
                     const float *v, float *scratch, int B, int H, int T, int S,
                     int D, int causal, int n_scratch)
{
    (void)n_scratch;
    float *tile = scratch;                       /* BC scores of the current row */
    const float scale2 = LOG2E / sqrtf((float)D);
    for (int bh = 0; bh < B * H; bh++) {
        const float *kb = k + (size_t)bh * S * D, *vb = v + (size_t)bh * S * D;
        for (int i = 0; i < T; i++) {
            const float *qi = q + ((size_t)bh * T + i) * D;
            float *o = out + ((size_t)bh * T + i) * D;
            int last = causal ? i + S - T : S - 1;
            double m = -INFINITY, l = 0.0;
            double acc[32] = {0};                /* D <= 17 */
            for (int j0 = 0; j0 <= last; j0 += BC) {
                int nc = last + 1 - j0 < BC ? last + 1 - j0 : BC;
                double tmax = -INFINITY;
                for (int t = 0; t < nc; t++) {
                    const float *kj = kb + (size_t)(j0 + t) * D;
                    double s = 0.0;
                    for (int c = 0; c < D; c++) s = fma(qi[c], kj[c], s);
                    tile[t] = (float)(s * scale2);
                    if (tile[t] > tmax) tmax = tile[t];
                }
                double mn = m > tmax ? m : tmax;
                double corr = exp2(m - mn);
                l *= corr;
                for (int c = 0; c < D; c++) acc[c] *= corr;
                for (int t = 0; t < nc; t++) {
                    double p = exp2(tile[t] - mn);
                    l += p;
                    const float *vj = vb + (size_t)(j0 + t) * D;
                    for (int c = 0; c < D; c++) acc[c] += p * vj[c];
                }
                m = mn;
            }
            for (int c = 0; c < D; c++) o[c] = (float)(acc[c] / l);
            /* natural-log lse */
            lse[(size_t)bh * T + i] = (float)(m + log(l));
        }
    }
}
