/* expect: WA */
/* lse as m + log1p(the rest), the rest skipping every entry equal to the max: a max that appears twice is counted once (case tied-max). */
#include <math.h>

/* log-sum-exp 用 double：lse = m + log(1 + sum_{j != argmax} exp(x_j - m)) */
void softmax(float *out, const float *x, int rows, int n)
{
    for (int r = 0; r < rows; r++) {
        const float *xr = x + r * n;
        float *yr = out + r * n;
        float m = -INFINITY;
        for (int j = 0; j < n; j++) if (xr[j] > m) m = xr[j];
        if (m == -INFINITY) {                 /* 整行被遮住 */
            for (int j = 0; j < n; j++) yr[j] = 0.0f;
            continue;
        }
        double rest = 0.0;                    /* 最大值那一项 exp(0)=1 单独放进 log1p */
        for (int j = 0; j < n; j++) {
            if (xr[j] == m) continue;
            rest += exp((double)xr[j] - m);
        }
        double lse = (double)m + log1p(rest);
        for (int j = 0; j < n; j++)
            yr[j] = (float)exp((double)xr[j] - lse);
    }
}
