/* expect: WA topk_by_magnitude */
/* Ranks the visible keys by fabs(score): a very negative score takes a slot it would barely use. */
#include <math.h>
#include <stdlib.h>

void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    double *s = malloc(sizeof(double) * T);
    for (int bh = 0; bh < B * H; bh++) {
        size_t base = (size_t)bh * T * D;
        for (int i = 0; i < T; i++) {
            for (int j = 0; j <= i; j++) {
                double d = 0.0;
                for (int c = 0; c < D; c++) d += (double)q[base + i * D + c] * k[base + j * D + c];
                s[j] = d / sqrt((double)D);
            }
            double mx = -INFINITY, sum = 0.0, acc[512] = { 0 };
            unsigned char keep[4096];
            for (int j = 0; j <= i; j++) {
                int better = 0;
                for (int m = 0; m <= i; m++)
                    better += fabs(s[m]) > fabs(s[j]) || (fabs(s[m]) == fabs(s[j]) && m < j);
                keep[j] = better < topk;
                if (keep[j] && s[j] > mx) mx = s[j];
            }
            for (int j = 0; j <= i; j++) {
                if (!keep[j]) continue;
                double w = exp(s[j] - mx);
                sum += w;
                for (int c = 0; c < D; c++) acc[c] += w * v[base + j * D + c];
            }
            for (int c = 0; c < D; c++) out[base + i * D + c] = (float)(acc[c] / sum);
        }
    }
    free(s);
}
