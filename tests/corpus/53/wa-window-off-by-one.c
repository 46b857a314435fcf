/* expect: WA window_off_by_one */
/* The window test is j >= i - window: W + 1 recent keys. */
#include <math.h>
#include <stdlib.h>

void sink_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int n_sink, int window)
{
    float *w = malloc(sizeof(float) * T);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            int base = (b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                float max = -INFINITY, sum = 0.0f;
                for (int j = 0; j < T; j++) {
                    w[j] = 0.0f;
                    int keep = j <= i && (j < n_sink || j >= i - window);
                    if (!keep) continue;
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += q[base + i * D + c] * k[base + j * D + c];
                    w[j] = s / sqrtf((float)D);
                    if (w[j] > max) max = w[j];
                }
                for (int j = 0; j < T; j++) {
                    int keep = j <= i && (j < n_sink || j >= i - window);
                    w[j] = keep ? expf(w[j] - max) : 0.0f;
                    sum += w[j];
                }
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j < T; j++) acc += w[j] * v[base + j * D + c];
                    out[base + i * D + c] = acc / sum;
                }
            }
        }
    free(w);
}
