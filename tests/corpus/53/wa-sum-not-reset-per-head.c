/* expect: WA sum_not_reset */
/* One (b, h) at a time, the row max reset per query but the sum only per (b, h). */
#include <math.h>
#include <stdlib.h>

void sink_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int n_sink, int window)
{
    float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * T);
    for (int bh = 0; bh < B * H; bh++) {
        float sum = 0.0f;
        const float *qb = q + bh * T * D, *kb = k + bh * T * D, *vb = v + bh * T * D;
        for (int i = 0; i < T; i++) {
            float max = -INFINITY;
            for (int j = 0; j < T; j++) {
                /* One test per key, so a sink inside the window counts once. */
                int seen = j <= i && (j < n_sink || j > i - window);
                p[j] = -INFINITY;
                if (!seen) continue;
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qb[i * D + c] * kb[j * D + c];
                p[j] = s * scale;
                if (p[j] > max) max = p[j];
            }
            for (int j = 0; j < T; j++) {
                p[j] = p[j] == -INFINITY ? 0.0f : expf(p[j] - max);
                sum += p[j];
            }
            /* Query i always sees itself, so sum > 0. */
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j < T; j++) acc += p[j] * vb[j * D + c];
                out[(bh * T + i) * D + c] = acc / sum;
            }
        }
    }
    free(p);
}
