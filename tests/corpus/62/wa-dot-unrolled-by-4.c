/* expect: WA dot_tail_dropped */
/* gpt-oss 风格：按 4 展开点积（D 通常是 64），没写剩余部分的循环；其余按定义来。 */
#include <math.h>

void learned_sink_attention(float *out, const float *q, const float *k, const float *v,
                            const float *sinks, int B, int H, int T, int D, int W)
{
    const float sc = 1.0f / sqrtf((float)D);
    float s[T];
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *Q = q + (long)(b * H + h) * T * D;
            const float *K = k + (long)(b * H + h) * T * D;
            const float *V = v + (long)(b * H + h) * T * D;
            float *O = out + (long)(b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                int lo = (W > 0 && i - W + 1 > 0) ? i - W + 1 : 0;
                float m = sinks[h];
                for (int j = lo; j <= i; j++) {
                    float acc = 0.0f;
                    int c;
                    for (c = 0; c + 4 <= D; c += 4)
                        acc += Q[i * D + c] * K[j * D + c] + Q[i * D + c + 1] * K[j * D + c + 1]
                             + Q[i * D + c + 2] * K[j * D + c + 2] + Q[i * D + c + 3] * K[j * D + c + 3];
                    s[j] = acc * sc;
                    if (s[j] > m) m = s[j];
                }
                float den = expf(sinks[h] - m);
                for (int j = lo; j <= i; j++) { s[j] = expf(s[j] - m); den += s[j]; }
                for (int c = 0; c < D; c++) {
                    float o = 0.0f;
                    for (int j = lo; j <= i; j++) o += s[j] * V[j * D + c];
                    O[i * D + c] = o / den;
                }
            }
        }
}
