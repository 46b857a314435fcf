/* expect: WA sinks_off_by_one */
/* Keys j <= n_sink kept as sinks: one key too many. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
static int sees(int i, int j, int n_sink, int W)
{
    return j <= i && (j <= n_sink || j > i - W);
}
void sink_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int n_sink, int window)
{
    float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * T);
    for (int bh = 0; bh < B * H; bh++) {
        const float *Q = q + (long)bh * T * D, *K = k + (long)bh * T * D, *V = v + (long)bh * T * D;
        float *O = out + (long)bh * T * D;
        for (int i = 0; i < T; i++) {
            float m = -INFINITY;
            for (int j = 0; j < T; j++) {
                if (!sees(i, j, n_sink, window)) continue;
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += Q[i * D + c] * K[j * D + c];
                p[j] = s * scale;
                if (p[j] > m) m = p[j];
            }
            float sum = 0.0f;
            for (int j = 0; j < T; j++)
                if (sees(i, j, n_sink, window)) { p[j] = expf(p[j] - m); sum += p[j]; }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j < T; j++)
                    if (sees(i, j, n_sink, window)) acc += p[j] * V[j * D + c];
                O[i * D + c] = acc / sum;
            }
        }
    }
    free(p);
}
