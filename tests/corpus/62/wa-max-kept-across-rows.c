/* expect: WA max_not_per_row */
/* The running max starts at the head's sink once and is kept from row to row (only ever raised): exact in theory, but a row far below an earlier one underflows. */
#include <math.h>
#include <stdlib.h>

void learned_sink_attention(float *out, const float *q, const float *k, const float *v,
                            const float *sinks, int B, int H, int T, int D, int W)
{
    float *e = malloc(sizeof(float) * (size_t)T);
    const float r = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const size_t base = ((size_t)b * H + h) * T * D;
            float m = sinks[h];
            for (int i = 0; i < T; i++) {
                const int lo = W > 0 && i - W + 1 > 0 ? i - W + 1 : 0;
                for (int j = lo; j <= i; j++) {
                    float d = 0.0f;
                    for (int c = 0; c < D; c++) d += q[base + (size_t)i * D + c] * k[base + (size_t)j * D + c];
                    e[j] = d * r;
                    if (e[j] > m) m = e[j];
                }
                float den = expf(sinks[h] - m);
                for (int j = lo; j <= i; j++) den += e[j] = expf(e[j] - m);
                for (int c = 0; c < D; c++) {
                    float a = 0.0f;
                    for (int j = lo; j <= i; j++) a += e[j] * v[base + (size_t)j * D + c];
                    out[base + (size_t)i * D + c] = a / den;
                }
            }
        }
    free(e);
}
