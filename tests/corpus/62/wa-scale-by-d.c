/* expect: WA scale_by_d */
/* Scores divided by D, not by sqrt(D). */
#include <math.h>
#include <stddef.h>
void learned_sink_attention(float *out, const float *q, const float *k, const float *v,
                            const float *sinks, int B, int H, int T, int D, int W)
{
    float scale = 1.0f / (float)D;
    for (int b = 0; b < B; b++)
    for (int h = 0; h < H; h++) {
        size_t base = (size_t)(b * H + h) * T * D;
        for (int i = 0; i < T; i++) {
            float s[64 + 1];
            int lo = 0;
            if (W > 0 && i - W + 1 > 0) lo = i - W + 1;
            float sink = sinks[h];
            float m = sink;
            for (int j = lo; j <= i; j++) {
                float d = 0;
                for (int c = 0; c < D; c++) d += q[base + i * D + c] * k[base + j * D + c];
                s[j] = d * scale;
                if (s[j] > m) m = s[j];
            }
            float den = expf(sink - m);
            for (int j = lo; j <= i; j++) { s[j] = expf(s[j] - m); den += s[j]; }
            for (int c = 0; c < D; c++) {
                float acc = 0;
                for (int j = lo; j <= i; j++) acc += s[j] * v[base + j * D + c];
                out[base + i * D + c] = acc / den;
            }
        }
    }
}
