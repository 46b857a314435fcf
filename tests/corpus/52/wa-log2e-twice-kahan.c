/* expect: WA exp_factor_extra */
/* log2(e) in the scale and again inside exp2f; Kahan-summed denominator */
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* 数值派：用 exp2f 代替 expf，log2(e) 预先并进缩放系数；分母用 Kahan 求和 */
void decode_step(float *out, float *k_cache, float *v_cache, int *len,
                 const float *q, const float *k, const float *v,
                 int B, int S_max, int H, int D)
{
    const float LOG2E = 1.44269504088896341f;
    const int R = H * D;
    const float sl = LOG2E / sqrtf((float)D);     /* 缩放 × log2(e) */
    float *t = malloc(sizeof(float) * S_max);
    for (int b = 0; b < B; b++) {
        int n = len[b];
        float *kc = k_cache + (size_t)b * S_max * R, *vc = v_cache + (size_t)b * S_max * R;
        memcpy(kc + n * R, k + b * R, sizeof(float) * R);
        memcpy(vc + n * R, v + b * R, sizeof(float) * R);
        for (int h = 0; h < H; h++) {
            const float *qh = q + b * R + h * D;
            float m = -INFINITY;
            for (int j = 0; j <= n; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s = fmaf(qh[c], kc[j * R + h * D + c], s);
                t[j] = s * sl;
                if (t[j] > m) m = t[j];
            }
            float sum = 0.0f, comp = 0.0f;            /* Kahan */
            for (int j = 0; j <= n; j++) {
                t[j] = exp2f((t[j] - m) * LOG2E);
                float y = t[j] - comp, s2 = sum + y;
                comp = (s2 - sum) - y;
                sum = s2;
            }
            for (int c = 0; c < D; c++) {
                double acc = 0.0;
                for (int j = 0; j <= n; j++) acc += (double)t[j] * vc[j * R + h * D + c];
                out[b * R + h * D + c] = (float)(acc / sum);
            }
        }
        len[b] = n + 1;
    }
    free(t);
}
