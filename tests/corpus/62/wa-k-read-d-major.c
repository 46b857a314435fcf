/* expect: WA k_read_transposed */
/* Reads each key as if k were stored [D, T] per head (k[base + c*T + j])
 * instead of [T, D] (k[base + j*D + c]); the sink logic is right. */
#include <math.h>
#include <stdlib.h>
#include <stddef.h>

void learned_sink_attention(float *out, const float *q, const float *k, const float *v,
                            const float *sinks, int B, int H, int T, int D, int W)
{
    /* logits[0] is the sink, logits[1 + n] the n-th visible key */
    float *logits = malloc(sizeof(float) * (size_t)(T + 1));
    const float inv = 1.0f / sqrtf((float)D);

    for (int b = 0; b < B; b++) {
        for (int h = 0; h < H; h++) {
            size_t base = ((size_t)b * H + h) * (size_t)T * D;
            for (int i = 0; i < T; i++) {
                int j0 = 0;
                if (W > 0 && i - W + 1 > 0) j0 = i - W + 1;
                int n = i - j0 + 1;

                logits[0] = sinks[h];            /* appended as is, not scaled */
                for (int j = j0; j <= i; j++) {
                    float d = 0.0f;
                    for (int c = 0; c < D; c++)
                        d += q[base + (size_t)i * D + c] * k[base + (size_t)c * T + j];
                    logits[1 + j - j0] = d * inv;
                }

                /* softmax over n + 1 entries */
                float top = logits[0];
                for (int t = 1; t <= n; t++) if (logits[t] > top) top = logits[t];
                float z = 0.0f;
                for (int t = 0; t <= n; t++) {
                    logits[t] = expf(logits[t] - top);
                    z += logits[t];
                }

                /* drop the sink's column: it carries no value */
                for (int c = 0; c < D; c++) {
                    float o = 0.0f;
                    for (int t = 1; t <= n; t++)
                        o += logits[t] * v[base + (size_t)(j0 + t - 1) * D + c];
                    out[base + (size_t)i * D + c] = o / z;
                }
            }
        }
    }
    free(logits);
}
