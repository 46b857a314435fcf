/* expect: WA cu_seqlens_off_by_one */
/* Finds each token's sequence with t > cu_seqlens[b + 1] instead of >=, so the first token of a sequence is taken as the last of the one before and attends over it. */
#include <math.h>
#include <stdlib.h>

void varlen_attention(float *out, const float *q, const float *k, const float *v,
                      const int *cu_seqlens, int B, int total, int H, int D)
{
    float *p = malloc(sizeof(float) * (size_t)total);
    for (int t = 0; t < total; t++) {
        int b = 0;
        while (b < B - 1 && t > cu_seqlens[b + 1]) b++;
        int start = cu_seqlens[b];
        for (int h = 0; h < H; h++) {
            float mx = -INFINITY, sum = 0.0f;
            for (int j = start; j <= t; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += q[(t * H + h) * D + c] * k[(j * H + h) * D + c];
                p[j] = s / sqrtf((float)D);
                mx = fmaxf(mx, p[j]);
            }
            for (int j = start; j <= t; j++) sum += (p[j] = expf(p[j] - mx));
            for (int c = 0; c < D; c++) {
                float a = 0.0f;
                for (int j = start; j <= t; j++) a += p[j] / sum * v[(j * H + h) * D + c];
                out[(t * H + h) * D + c] = a;
            }
        }
    }
    free(p);
}
