/* expect: WA online_nan_before_first_value */
/* 在线 softmax：一遍里同时更新最大值和累计和，每一步都乘 exp(旧最大值 - 新最大值)；一行开头的 -inf 让这个因子成了 NaN。 */
#include <math.h>

void softmax(float *out, const float *x, int rows, int n)
{
    for (int r = 0; r < rows; r++) {
        const float *row = x + (long)r * n;
        float *y = out + (long)r * n;
        float mx = -INFINITY, l = 0.0f;
        for (int j = 0; j < n; j++) {
            float nm = fmaxf(mx, row[j]);
            l = l * expf(mx - nm) + expf(row[j] - nm);
            mx = nm;
        }
        for (int j = 0; j < n; j++)
            y[j] = mx == -INFINITY ? 0.0f : expf(row[j] - mx) / l;
    }
}
