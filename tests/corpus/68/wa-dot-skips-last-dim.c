/* expect: WA */
/* Right in every way but the dot product, whose loop stops one dimension short (c < D - 1). */
#include <math.h>
#include <stdlib.h>

void varlen_attention(float *out, const float *q, const float *k, const float *v,
                      const int *cu_seqlens, int B, int total, int H, int D)
{
    float *p = malloc(sizeof(float) * (size_t)total);
    for (int b = 0; b < B; b++)
        for (int t = cu_seqlens[b]; t < cu_seqlens[b + 1]; t++)
            for (int h = 0; h < H; h++) {
                float mx = -INFINITY, sum = 0.0f;
                for (int j = cu_seqlens[b]; j <= t; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D - 1; c++) s += q[(t * H + h) * D + c] * k[(j * H + h) * D + c];
                    p[j] = s / sqrtf((float)D);
                    if (p[j] > mx) mx = p[j];
                }
                for (int j = cu_seqlens[b]; j <= t; j++) sum += (p[j] = expf(p[j] - mx));
                for (int c = 0; c < D; c++) {
                    float a = 0.0f;
                    for (int j = cu_seqlens[b]; j <= t; j++) a += p[j] * v[(j * H + h) * D + c];
                    out[(t * H + h) * D + c] = a / sum;
                }
            }
    free(p);
}
