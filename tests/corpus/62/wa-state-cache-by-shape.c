/* expect: WA state_kept_between_calls */
/* Two passes that return the previous output again when the shape is that of the last call. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

static float prev[3 * 4 * 65 * 17];
static int prev_shape[5] = { -1 };

void learned_sink_attention(float *out, const float *q, const float *k, const float *v,
                            const float *sinks, int B, int H, int T, int D, int W)
{
    int shape[5] = { B, H, T, D, W };
    size_t n_out = (size_t)B * H * T * D;
    if (!memcmp(shape, prev_shape, sizeof shape)) {   /* asked before */
        memcpy(out, prev, n_out * sizeof(float));
        return;
    }
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
                out[(bh * T + i) * D + c] = acc / sum;
            }
        }
    }
    free(p);
    memcpy(prev, out, n_out * sizeof(float));
    memcpy(prev_shape, shape, sizeof shape);
}
