/* expect: WA softmax_overflow */
/* no max subtraction */
#include <math.h>
#include <stdlib.h>
/* heads outer, then sequences; local positions i, j with a base pointer per sequence; two-pass softmax */
void varlen_attention(float *out, const float *q, const float *k, const float *v,
                      const int *cu_seqlens, int B, int total, int H, int D)
{
    const float sc = 1.0f / sqrtf((float)D);
    const int ld = H * D;
    float *w = malloc(sizeof(float) * (total + 1));
    for (int h = 0; h < H; h++)
        for (int b = 0; b < B; b++) {
            int len = cu_seqlens[b + 1] - cu_seqlens[b];
            const float *Qs = q + (size_t)cu_seqlens[b] * ld + h * D;
            const float *Ks = k + (size_t)cu_seqlens[b] * ld + h * D;
            const float *Vs = v + (size_t)cu_seqlens[b] * ld + h * D;
            float *Os = out + (size_t)cu_seqlens[b] * ld + h * D;
            for (int i = 0; i < len; i++) {
                float mx = -INFINITY;
                for (int j = 0; j <= i; j++) {
                    float s = 0;
                    for (int c = 0; c < D; c++) s += Qs[i * ld + c] * Ks[j * ld + c];
                    w[j] = s * sc;
                    if (w[j] > mx) mx = w[j];
                }
                float z = 0;
                for (int j = 0; j <= i; j++) z += (w[j] = expf(w[j]));
                for (int c = 0; c < D; c++) {
                    float a = 0;
                    for (int j = 0; j <= i; j++) a += w[j] * Vs[j * ld + c];
                    Os[i * ld + c] = a / z;
                }
            }
        }
    free(w);
}
