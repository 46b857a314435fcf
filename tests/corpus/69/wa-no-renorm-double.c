/* expect: WA topk_not_renormalised */
/* The softmax over every visible key in double, then only the top-k keys' weighted values summed: the kept weights add up to less than 1. */
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
                double mx = -INFINITY, sum = 0.0, acc[512] = { 0 };
                for (int j = 0; j <= i; j++) {
                    double d = 0.0;
                    for (int c = 0; c < D; c++) d += (double)q[base + i * D + c] * k[base + j * D + c];
                    s[j] = d / sqrt((double)D);
                    mx = s[j] > mx ? s[j] : mx;
                }
                for (int j = 0; j <= i; j++) sum += exp(s[j] - mx);
                for (int j = 0; j <= i; j++) {
                    int better = 0;
                    for (int m = 0; m <= i; m++) better += s[m] > s[j] || (s[m] == s[j] && m < j);
                    if (better >= topk) continue;   /* zeroed, and the sum left as it was */
                    for (int c = 0; c < D; c++) acc[c] += exp(s[j] - mx) / sum * v[base + j * D + c];
                }
                for (int c = 0; c < D; c++) out[base + i * D + c] = (float)acc[c];
            }
        }
    free(s);
}
