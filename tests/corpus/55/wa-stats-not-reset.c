/* expect: WA stats_not_reset */
/* The running max and running sum are declared once at the top of the function and never reset for each query row (only the accumulator is cleared). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define KB 16
#define MAXD 32

static float qv[MAXD];
static float accum[MAXD];
static float sblk[KB];

void flash_attention(float *out, float *lse, const float *q, const float *k,
                     const float *v, float *scratch, int B, int H, int T, int S,
                     int D, int causal, int n_scratch)
{
    (void)scratch;
    (void)n_scratch;
    const float inv_sqrt_d = 1.0f / sqrtf((float)D);
    const int shift = S - T;
    float run_max = -INFINITY, run_sum = 0.0f;
    for (int bh = 0; bh < B * H; bh++) {
        for (int i = 0; i < T; i++) {
            int stop = causal ? i + shift + 1 : S;
            for (int c = 0; c < D; c++) {
                qv[c] = q[((size_t)bh * T + i) * D + c];
                accum[c] = 0.0f;
            }
            for (int j0 = 0; j0 < stop; j0 += KB) {
                int j1 = j0 + KB < stop ? j0 + KB : stop;
                float blk_max = run_max;
                for (int j = j0; j < j1; j++) {
                    const float *kr = k + ((size_t)bh * S + j) * D;
                    float dot = 0.0f;
                    for (int c = 0; c < D; c++) dot += qv[c] * kr[c];
                    sblk[j - j0] = dot;
                    blk_max = fmaxf(blk_max, dot);
                }
                /* scores stay unscaled; 1/sqrt(D) goes into the exponent */
                float fac = expf((run_max - blk_max) * inv_sqrt_d);
                run_sum *= fac;
                for (int c = 0; c < D; c++) accum[c] *= fac;
                for (int j = j0; j < j1; j++) {
                    float e = expf((sblk[j - j0] - blk_max) * inv_sqrt_d);
                    const float *vr = v + ((size_t)bh * S + j) * D;
                    run_sum += e;
                    for (int c = 0; c < D; c++) accum[c] += e * vr[c];
                }
                run_max = blk_max;
            }
            float *orow = out + ((size_t)bh * T + i) * D;
            for (int c = 0; c < D; c++) orow[c] = accum[c] / run_sum;
            lse[(size_t)bh * T + i] = run_max * inv_sqrt_d + logf(run_sum);
        }
    }
}
