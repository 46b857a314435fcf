/* expect: AC */
/* Scores and softmax in double; a key is kept when fewer than topk visible keys outrank it. */
#include <math.h>
#include <stdlib.h>

void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    double *s = malloc(sizeof(double) * T);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            size_t base = ((size_t)b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                for (int j = 0; j <= i; j++) {
                    double d = 0.0;
                    for (int c = 0; c < D; c++) d += (double)q[base + i * D + c] * k[base + j * D + c];
                    s[j] = d / sqrt((double)D);
                }
                double mx = -INFINITY, sum = 0.0;
                for (int j = 0; j <= i; j++) mx = s[j] > mx ? s[j] : mx;   /* the best key is kept */
                for (int c = 0; c < D; c++) out[base + i * D + c] = 0.0f;
                double acc[512] = { 0 };
                for (int j = 0; j <= i; j++) {
                    int better = 0;
                    for (int m = 0; m <= i; m++) better += s[m] > s[j] || (s[m] == s[j] && m < j);
                    if (better >= topk) continue;
                    double w = exp(s[j] - mx);
                    sum += w;
                    for (int c = 0; c < D; c++) acc[c] += w * v[base + j * D + c];
                }
                for (int c = 0; c < D; c++) out[base + i * D + c] = (float)(acc[c] / sum);
            }
        }
    free(s);
}
