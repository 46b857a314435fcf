/* expect: WA exp_base_two */
/* exp2f for speed without log2(e); double sums */
#include <math.h>
#include <stdlib.h>

/* 数值派：exp2f 比 expf 快；分数、分母都用 double 累加 */
void sink_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int n_sink, int window)
{
    const float scale = 1.0f / sqrtf((float)D);
    float *t = malloc(sizeof(float) * T);
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + bh * T * D, *K = k + bh * T * D, *V = v + bh * T * D;
        for (int i = 0; i < T; i++) {
            float m = -INFINITY;
            for (int j = 0; j <= i; j++) {
                t[j] = -INFINITY;
                if (!(j < n_sink || j > i - window)) continue;
                double d = 0.0;
                for (int c = 0; c < D; c++) d += (double)Q[i * D + c] * K[j * D + c];
                t[j] = (float)d * scale;
                if (t[j] > m) m = t[j];
            }
            double z = 0.0;
            for (int j = 0; j <= i; j++) {
                t[j] = t[j] == -INFINITY ? 0.0f : exp2f(t[j] - m);
                z += t[j];
            }
            for (int c = 0; c < D; c++) {
                double a = 0.0;
                for (int j = 0; j <= i; j++) a += (double)t[j] * V[j * D + c];
                out[(bh * T + i) * D + c] = (float)(a / z);
            }
        }
    }
    free(t);
}
