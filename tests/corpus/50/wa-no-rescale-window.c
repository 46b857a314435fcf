/* expect: WA no_rescale */
/* Online softmax over the window, walking forward from its first key; a growing max rescales nothing. */
#include <math.h>
#include <stdlib.h>
void swa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int T, int D, int W)
{
    float *acc = malloc(sizeof(float) * D);
    const float sc = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            long base = (long)(b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                float m = -INFINITY, l = 0;
                for (int c = 0; c < D; c++) acc[c] = 0;
                for (int j = (i - W + 1 > 0 ? i - W + 1 : 0); j <= i; j++) {
                    float s = 0;
                    for (int c = 0; c < D; c++) s += q[base + i * D + c] * k[base + j * D + c];
                    s *= sc;
                    float nm = fmaxf(m, s), r = expf(m - nm), e = expf(s - nm);
                    l = l + e;
                    for (int c = 0; c < D; c++) acc[c] = acc[c] + e * v[base + j * D + c];
                    m = nm;
                }
                for (int c = 0; c < D; c++) out[base + i * D + c] = acc[c] / l;
            }
        }
    free(acc);
}
