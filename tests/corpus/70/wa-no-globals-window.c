/* expect: WA hybrid_no_globals */
/* Exercise 50's sliding window, with global_idx and G never read. */
#include <math.h>
#include <stdlib.h>

void hybrid_attention(float *out, const float *q, const float *k, const float *v,
                      const int *global_idx, int B, int H, int T, int D, int W, int G)
{
    (void)global_idx, (void)G;
    float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * T);
    for (int bh = 0; bh < B * H; bh++) {
        const float *qh = q + bh * T * D, *kh = k + bh * T * D, *vh = v + bh * T * D;
        for (int i = 0; i < T; i++) {
            int first = i - W + 1 > 0 ? i - W + 1 : 0;
            float max = -INFINITY, sum = 0.0f;
            for (int j = first; j <= i; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qh[i * D + c] * kh[j * D + c];
                p[j] = s * scale;
                if (p[j] > max) max = p[j];
            }
            for (int j = first; j <= i; j++) sum += p[j] = expf(p[j] - max);
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = first; j <= i; j++) acc += p[j] * vh[j * D + c];
                out[(bh * T + i) * D + c] = acc / sum;
            }
        }
    }
    free(p);
}
