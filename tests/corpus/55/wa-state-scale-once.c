/* expect: WA depends_on_earlier_calls */
/* Online in double with 1/sqrt(D) computed into a static on the first call and reused. */
#include <math.h>

void flash_attention(float *out, float *lse, const float *q, const float *k,
                     const float *v, float *scratch, int B, int H, int T, int S,
                     int D, int causal, int n_scratch)
{
    (void)scratch, (void)n_scratch;
    static double scale;
    if (scale == 0.0) scale = 1.0 / sqrt((double)D);   /* only once */
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < T; i++) {
            const float *qi = q + ((long)bh * T + i) * D;
            double m = -HUGE_VAL, l = 0.0, acc[17];   /* D <= 17 */
            for (int c = 0; c < D; c++) acc[c] = 0.0;
            int stop = causal ? S - T + i : S - 1;   /* the last key seen */
            for (int j = 0; j <= stop; j++) {
                const float *kj = k + ((long)bh * S + j) * D, *vj = v + ((long)bh * S + j) * D;
                double s = 0.0;
                for (int c = 0; c < D; c++) s += (double)qi[c] * kj[c];
                s *= scale;
                if (s > m) {   /* a new max: what was summed shrinks by exp(m - s) */
                    double r = exp(m - s);
                    l *= r;
                    for (int c = 0; c < D; c++) acc[c] *= r;
                    m = s;
                }
                double p = exp(s - m);
                l += p;
                for (int c = 0; c < D; c++) acc[c] += p * vj[c];
            }
            float *o = out + ((long)bh * T + i) * D;
            for (int c = 0; c < D; c++) o[c] = (float)(acc[c] / l);
            lse[(long)bh * T + i] = (float)(m + log(l));
        }
}
