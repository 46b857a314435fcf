/* expect: WA scale_sqrt_keys */
/* The scores are divided by sqrt(T), the sequence length, not sqrt(D). */
#include <math.h>
#include <stdlib.h>

void swa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int T, int D, int W)
{
    float scale = 1.0f / sqrtf((float)T);
    float *p = malloc(sizeof(float) * T);
    for (int bh = 0; bh < B * H; bh++) {
        const float *qh = q + bh * T * D, *kh = k + bh * T * D, *vh = v + bh * T * D;
        float *oh = out + bh * T * D;
        for (int i = 0; i < T; i++) {
            int first = i - W + 1 > 0 ? i - W + 1 : 0;
            float max = -INFINITY, sum = 0.0f;
            for (int j = first; j <= i; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qh[i * D + c] * kh[j * D + c];
                p[j] = s * scale;
                if (p[j] > max) max = p[j];
            }
            for (int j = first; j <= i; j++) { p[j] = expf(p[j] - max); sum += p[j]; }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = first; j <= i; j++) acc += p[j] * vh[j * D + c];
                oh[i * D + c] = acc / sum;
            }
        }
    }
    free(p);
}
