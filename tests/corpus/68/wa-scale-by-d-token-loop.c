/* expect: WA scale_by_d */
/* Token loop with a sequence search, right in every way but the scale: the scores are divided by D. */
#include <math.h>
#include <stdlib.h>

void varlen_attention(float *out, const float *q, const float *k, const float *v,
                      const int *cu_seqlens, int B, int total, int H, int D)
{
    float *p = malloc(sizeof(float) * (size_t)total);
    int b = 0;
    for (int t = 0; t < total; t++) {
        while (t >= cu_seqlens[b + 1]) b++;
        for (int h = 0; h < H; h++) {
            float mx = -INFINITY, sum = 0.0f;
            for (int j = cu_seqlens[b]; j <= t; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += q[(t * H + h) * D + c] * k[(j * H + h) * D + c];
                p[j] = s / (float)D;
                if (p[j] > mx) mx = p[j];
            }
            for (int j = cu_seqlens[b]; j <= t; j++) sum += (p[j] = expf(p[j] - mx));
            for (int c = 0; c < D; c++) {
                float a = 0.0f;
                for (int j = cu_seqlens[b]; j <= t; j++) a += p[j] * v[(j * H + h) * D + c];
                out[(t * H + h) * D + c] = a / sum;
            }
        }
    }
    (void)B;
    free(p);
}
