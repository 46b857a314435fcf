/* expect: WA window_ahead */
/* The key loop runs over the window only, but the window is taken from the query forward: keys i .. min(i + W, T) - 1. */
#include <math.h>
#include <stdlib.h>

void swa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int T, int D, int W)
{
    float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * T);
    for (int bh = 0; bh < B * H; bh++) {
        const float *qh = q + bh * T * D, *kh = k + bh * T * D, *vh = v + bh * T * D;
        float *oh = out + bh * T * D;
        for (int i = 0; i < T; i++) {
            int last = i + W < T ? i + W : T;   /* keys i .. last - 1: W of them */
            float max = -INFINITY, sum = 0.0f;
            for (int j = i; j < last; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qh[i * D + c] * kh[j * D + c];
                p[j] = s * scale;
                if (p[j] > max) max = p[j];
            }
            for (int j = i; j < last; j++) {
                p[j] = expf(p[j] - max);
                sum += p[j];
            }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = i; j < last; j++) acc += p[j] * vh[j * D + c];
                oh[i * D + c] = acc / sum;
            }
        }
    }
    free(p);
}
