/* expect: WA not_normalized */
/* output never divided by the softmax sum -- online softmax key by key in float seeded with the sink (m = sinks[h], l = 1); keys from max(0, i - W + 1) (or 0 when W = 0) to i; the result is written as acc, never acc / l */
#include <math.h>
#include <stdlib.h>

void learned_sink_attention(float *out, const float *q, const float *k, const float *v,
                            const float *sinks, int B, int H, int T, int D, int W)
{
    float scale = 1.0f / sqrtf((float)D);
    float *acc = malloc(sizeof(float) * D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            size_t base = ((size_t)b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                int j0 = 0;
                if (W > 0 && i - W + 1 > 0) j0 = i - W + 1;
                float m = sinks[h], l = 1.0f;   /* the sink: exp(sinks[h] - m) = 1 */
                for (int c = 0; c < D; c++) acc[c] = 0.0f;
                for (int j = j0; j <= i; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += q[base + i * D + c] * k[base + j * D + c];
                    s *= scale;
                    float mn = s > m ? s : m;
                    float a = expf(m - mn), p = expf(s - mn);
                    l = l * a + p;
                    for (int c = 0; c < D; c++) acc[c] = acc[c] * a + p * v[base + j * D + c];
                    m = mn;
                }
                for (int c = 0; c < D; c++) out[base + i * D + c] = acc[c];
            }
        }
    free(acc);
}
