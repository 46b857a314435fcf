/* expect: WA max_not_per_row */
/* Online softmax whose running max is reset once per (batch, head) but carried from one query row to the next, so a row with low scores is measured against an earlier row's high max. */
#include <math.h>
#include <stdlib.h>

static float dotf(const float *a, const float *b, int n)
{
    float s = 0.0f;
    for (int c = 0; c < n; c++) s += a[c] * b[c];
    return s;
}

void sink_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int n_sink, int window)
{
    const float scale = 1.0f / sqrtf((float)D);
    float *acc = malloc(sizeof(float) * D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            size_t base = (size_t)(b * H + h) * T * D;
            const float *Q = q + base, *K = k + base, *V = v + base;
            float *O = out + base;
            float run_max = -INFINITY;
            for (int i = 0; i < T; i++) {
                float denom = 0.0f;
                for (int c = 0; c < D; c++) acc[c] = 0.0f;
                int first_recent = i - window + 1;
                if (first_recent < 0) first_recent = 0;
                for (int j = 0; j <= i; j++) {
                    if (j >= n_sink && j < first_recent) continue;
                    float s = dotf(Q + (size_t)i * D, K + (size_t)j * D, D) * scale;
                    if (s > run_max) {
                        float r = expf(run_max - s);
                        denom *= r;
                        for (int c = 0; c < D; c++) acc[c] *= r;
                        run_max = s;
                    }
                    float e = expf(s - run_max);
                    denom += e;
                    for (int c = 0; c < D; c++) acc[c] += e * V[(size_t)j * D + c];
                }
                for (int c = 0; c < D; c++) O[(size_t)i * D + c] = acc[c] / denom;
            }
        }
    free(acc);
}
