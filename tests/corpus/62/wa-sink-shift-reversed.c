/* expect: WA sink_shift_reversed */
/* The reference's loops, with the sink's term written expf(max - sinks[h]). */
#include <math.h>
#include <stdlib.h>

void learned_sink_attention(float *out, const float *q, const float *k, const float *v,
                            const float *sinks, int B, int H, int T, int D, int W)
{
    float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * T);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *qb = q + (b * H + h) * T * D, *kb = k + (b * H + h) * T * D;
            const float *vb = v + (b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                int first = W > 0 && i - W + 1 > 0 ? i - W + 1 : 0;   /* keys first .. i */
                /* The sink is in the max, so no exp() below can overflow. */
                float max = sinks[h];
                for (int j = first; j <= i; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qb[i * D + c] * kb[j * D + c];
                    p[j] = s * scale;
                    if (p[j] > max) max = p[j];
                }
                float sum = expf(max - sinks[h]);   /* 汇聚项 */
                for (int j = first; j <= i; j++) {
                    p[j] = expf(p[j] - max);
                    sum += p[j];
                }
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = first; j <= i; j++) acc += p[j] * vb[j * D + c];
                    out[((b * H + h) * T + i) * D + c] = acc / sum;
                }
            }
        }
    free(p);
}
