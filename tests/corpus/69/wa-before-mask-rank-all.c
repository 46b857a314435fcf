/* expect: WA topk_before_mask */
/* Scores every key of the row, future included, ranks all T of them, and only then skips the keys past the query. */
#include <math.h>
#include <stdlib.h>

void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    double *s = malloc(sizeof(double) * T);
    for (int bh = 0; bh < B * H; bh++) {
        size_t base = (size_t)bh * T * D;
        for (int i = 0; i < T; i++) {
            for (int j = 0; j < T; j++) {
                double d = 0.0;
                for (int c = 0; c < D; c++) d += (double)q[base + i * D + c] * k[base + j * D + c];
                s[j] = d / sqrt((double)D);
            }
            double mx = -INFINITY, sum = 0.0, acc[512] = { 0 };
            for (int j = 0; j <= i; j++) mx = s[j] > mx ? s[j] : mx;
            for (int j = 0; j <= i; j++) {   /* the causal mask, after the ranking */
                int better = 0;
                for (int m = 0; m < T; m++) better += s[m] > s[j] || (s[m] == s[j] && m < j);
                if (better >= topk) continue;
                double w = exp(s[j] - mx);
                sum += w;
                for (int c = 0; c < D; c++) acc[c] += w * v[base + j * D + c];
            }
            for (int c = 0; c < D; c++) out[base + i * D + c] = sum > 0.0 ? (float)(acc[c] / sum) : 0.0f;
        }
    }
    free(s);
}
