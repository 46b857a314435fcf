/* expect: WA exp_factor_extra */
/* log2(e) folded into the scale for exp2f, then expf called all the same */
#include <math.h>
#include <stdlib.h>

/* 数值派写法：把 log2(e) 并进缩放系数，用 exp2 代替 exp，双精度累加 */
void swa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int T, int D, int W)
{
    const float LOG2E = 1.4426950408889634f;
    const float sl2 = LOG2E / sqrtf((float)D);   /* scale * log2(e) */
    float *t = malloc(sizeof(float) * T);
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + bh * T * D, *K = k + bh * T * D, *V = v + bh * T * D;
        for (int i = 0; i < T; i++) {
            int a = i - W + 1; if (a < 0) a = 0;
            float m = -INFINITY;
            for (int j = a; j <= i; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s = fmaf(Q[i * D + c], K[j * D + c], s);
                t[j] = s * sl2;
                if (t[j] > m) m = t[j];
            }
            double z = 0.0;
            for (int j = a; j <= i; j++) { t[j] = expf(t[j] - m); z += t[j]; }
            for (int c = 0; c < D; c++) {
                double acc = 0.0;
                for (int j = a; j <= i; j++) acc += (double)t[j] * V[j * D + c];
                out[(bh * T + i) * D + c] = (float)(acc / z);
            }
        }
    }
    free(t);
}
