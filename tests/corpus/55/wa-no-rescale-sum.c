/* expect: WA no_rescale_sum */
/* Tiles of keys; when the max grows the accumulator is multiplied by alpha but the running sum l is not. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BR 16
#define BC 32

void flash_attention(float *out, float *lse, const float *q, const float *k,
                     const float *v, float *scratch, int B, int H, int T, int S,
                     int D, int causal, int n_scratch)
{
    (void)n_scratch;
    const float scale = 1.0f / sqrtf((float)D);
    float *Sblk = scratch;              /* BR x BC scores   */
    float *mrow = scratch + BR * BC;    /* BR running max   */
    float *lrow = mrow + BR;            /* BR running sum   */
    float *acc  = lrow + BR;            /* BR x D accum     */
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (size_t)bh * T * D;
        const float *K = k + (size_t)bh * S * D;
        const float *V = v + (size_t)bh * S * D;
        for (int i0 = 0; i0 < T; i0 += BR) {
            int nr = T - i0 < BR ? T - i0 : BR;
            for (int r = 0; r < nr; r++) {
                mrow[r] = -INFINITY; lrow[r] = 0.0f;
                for (int c = 0; c < D; c++) acc[r * D + c] = 0.0f;
            }
            for (int j0 = 0; j0 < S; j0 += BC) {
                int nc = S - j0 < BC ? S - j0 : BC;
                
                for (int r = 0; r < nr; r++) {
                    int i = i0 + r;
                    float tmax = -INFINITY;
                    for (int t = 0; t < nc; t++) {
                        int j = j0 + t;
                        float s;
                        if (causal && j > i + S - T) s = -INFINITY;
                        else {
                            s = 0.0f;
                            for (int c = 0; c < D; c++) s += Q[i * D + c] * K[(size_t)j * D + c];
                            s *= scale;
                        }
                        Sblk[r * BC + t] = s;
                        if (s > tmax) tmax = s;
                    }
                    float mold = mrow[r];
                    float mnew = tmax > mold ? tmax : mold;
                    if (mnew == -INFINITY) continue;   /* whole tile masked for this row */
                    float alpha = expf(mold - mnew);
                    float psum = 0.0f;
                    
                    for (int c = 0; c < D; c++) acc[r * D + c] *= alpha;
                    for (int t = 0; t < nc; t++) {
                        float p = expf(Sblk[r * BC + t] - mnew);
                        psum += p;
                        for (int c = 0; c < D; c++) acc[r * D + c] += p * V[(size_t)(j0 + t) * D + c];
                    }
                    lrow[r] += psum;
                    mrow[r] = mnew;
                }
            }
            for (int r = 0; r < nr; r++) {
                float *o = out + ((size_t)bh * T + i0 + r) * D;
                for (int c = 0; c < D; c++) o[c] = acc[r * D + c] / lrow[r];
                lse[(size_t)bh * T + i0 + r] = mrow[r] + logf(lrow[r]);
            }
        }
    }
}
