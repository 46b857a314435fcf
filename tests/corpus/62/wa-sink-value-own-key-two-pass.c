/* expect: WA sink_value_own_key */
/* Two passes; the sink's weight multiplies the value at the query's own position. */
#include <math.h>
#include <stdlib.h>

void learned_sink_attention(float *out, const float *q, const float *k, const float *v,
                            const float *sinks, int B, int H, int T, int D, int W)
{
    float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * T);
    for (int bh = 0; bh < B * H; bh++) {
        int h = bh % H;
        const float *qb = q + bh * T * D, *kb = k + bh * T * D, *vb = v + bh * T * D;
        for (int i = 0; i < T; i++) {
            int lo = W > 0 ? i - W + 1 : 0;
            if (lo < 0) lo = 0;
            float sink = sinks[h];
            float max = sink;
            for (int j = lo; j <= i; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qb[i * D + c] * kb[j * D + c];
                p[j] = s * scale;
                if (p[j] > max) max = p[j];
            }
            float sum = expf(sink - max);
            for (int j = lo; j <= i; j++) {
                p[j] = expf(p[j] - max);
                sum += p[j];
            }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = lo; j <= i; j++) acc += p[j] * vb[j * D + c];
                out[(bh * T + i) * D + c] = (acc + expf(sink - max) * vb[i * D + c]) / sum;
            }
        }
    }
    free(p);
}
