/* expect: WA exp_factor_ln_two */
/* 数值派：用 exp2f 代替 expf，却把 ln 2 当成了换底的系数（应为 log2 e） */
#include <math.h>

#ifndef M_LN2
#define M_LN2 0.69314718055994530942
#endif

/* exp(t) == exp2(t * log2 e); the constant is folded once per row */
void softmax(float *out, const float *x, int rows, int n)
{
    const float k = (float)M_LN2;   /* conversion factor natural -> base 2 */
    for (int r = 0; r < rows; r++) {
        const float *xr = x + r * n;
        float *yr = out + r * n;
        float m = -INFINITY;
        for (int j = 0; j < n; j++) m = fmaxf(m, xr[j]);
        if (m == -INFINITY) {
            for (int j = 0; j < n; j++) yr[j] = 0.0f;
            continue;
        }
        double sum = 0.0, comp = 0.0;   /* Kahan-compensated denominator */
        const float mk = m * k;
        for (int j = 0; j < n; j++) {
            float e = exp2f(fmaf(xr[j], k, -mk));
            yr[j] = e;
            double y = (double)e - comp;
            double t = sum + y;
            comp = (t - sum) - y;
            sum = t;
        }
        const float inv = (float)(1.0 / sum);
        for (int j = 0; j < n; j++) yr[j] *= inv;
    }
}
