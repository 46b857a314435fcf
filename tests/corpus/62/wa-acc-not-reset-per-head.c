/* expect: WA acc_not_reset */
/* A VLA accumulator cleared at the start of each head; the sink's logit joins the max and the sum, the values add up across the head's queries. */
#include <math.h>
#include <string.h>

void learned_sink_attention(float *out, const float *q, const float *k, const float *v,
                            const float *sinks, int B, int H, int T, int D, int W)
{
    float acc[D];
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            memset(acc, 0, sizeof acc);
            size_t base = (size_t)(b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                int lo = W > 0 && i - W + 1 > 0 ? i - W + 1 : 0;
                float m = sinks[h];
                for (int j = lo; j <= i; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += q[base + i * D + c] * k[base + j * D + c];
                    m = fmaxf(m, s / sqrtf((float)D));
                }
                float z = expf(sinks[h] - m);
                for (int j = lo; j <= i; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += q[base + i * D + c] * k[base + j * D + c];
                    float e = expf(s / sqrtf((float)D) - m);
                    z += e;
                    for (int c = 0; c < D; c++) acc[c] += e * v[base + j * D + c];
                }
                for (int c = 0; c < D; c++) out[base + i * D + c] = acc[c] / z;
            }
        }
}
