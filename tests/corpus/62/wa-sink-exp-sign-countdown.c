/* expect: WA sink_shift_reversed */
/* Loops counting down; the sink's term in the denominator is expf(m - sink). */
#include <math.h>
#include <stdlib.h>

void learned_sink_attention(float *out, const float *q, const float *k, const float *v,
                            const float *sinks, int B, int H, int T, int D, int W)
{
    float inv_sqrt_d = 1.0f / sqrtf((float)D);
    float *row = (float *)calloc((size_t)T, sizeof(float));
    for (int b = B - 1; b >= 0; b--)
        for (int h = H - 1; h >= 0; h--) {
            size_t base = ((size_t)b * H + h) * T * D;
            for (int i = T - 1; i >= 0; i--) {
                int lo = 0;
                if (W > 0 && i >= W) lo = i - W + 1;
                float m = sinks[h];
                for (int j = i; j >= lo; j--) {
                    float s = 0.0f;
                    for (int c = D - 1; c >= 0; c--) s += q[base + i * D + c] * k[base + j * D + c];
                    row[j] = s * inv_sqrt_d;
                    if (row[j] > m) m = row[j];
                }
                /* 汇聚的那一项 */
                float denom = expf(m - sinks[h]);
                for (int j = i; j >= lo; j--) { row[j] = expf(row[j] - m); denom += row[j]; }
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = lo; j <= i; j++) acc += row[j] * v[base + j * D + c];
                    out[base + i * D + c] = acc / denom;
                }
            }
        }
    free(row);
}
