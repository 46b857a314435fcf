/* expect: WA softmax_overflow */
/* expf of the raw scores and the raw sink: no max subtracted. */
#include <math.h>
void learned_sink_attention(float *out, const float *q, const float *k, const float *v,
                            const float *sinks, int B, int H, int T, int D, int W)
{
    float sc = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++) for (int h = 0; h < H; h++) for (int i = 0; i < T; i++) {
        const float *qi = q + ((b * H + h) * T + i) * D;
        float *oi = out + ((b * H + h) * T + i) * D;
        float den = expf(sinks[h]);
        for (int c = 0; c < D; c++) oi[c] = 0;
        for (int j = 0; j <= i; j++) {
            if (W && j <= i - W) continue;
            const float *kj = k + ((b * H + h) * T + j) * D, *vj = v + ((b * H + h) * T + j) * D;
            float s = 0; for (int c = 0; c < D; c++) s += qi[c] * kj[c];
            float e = expf(s * sc); den += e;
            for (int c = 0; c < D; c++) oi[c] += e * vj[c];
        }
        for (int c = 0; c < D; c++) oi[c] /= den;
    }
}
