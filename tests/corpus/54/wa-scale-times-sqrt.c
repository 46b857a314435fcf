/* expect: WA scale_multiplied */
/* Online softmax over the real encoder keys, but each score is multiplied by
 * sqrt(D) instead of divided by it. */
#include <math.h>
#include <stddef.h>

#define MAXD 64

void cross_attention(float *out, const float *q, const float *k, const float *v,
                     const unsigned char *enc_mask, int B, int H, int T, int S, int D)
{
    const double scale = sqrt((double)D);   /* temperature of the scores */
    double acc[MAXD];

    for (size_t bh = 0; bh < (size_t)B * H; bh++) {
        size_t b = bh / (size_t)H;
        const float *Q = q + bh * T * D;
        const float *K = k + bh * S * D;
        const float *V = v + bh * S * D;
        float *O = out + bh * T * D;
        for (int t = 0; t < T; t++) {
            double run_max = -INFINITY, run_sum = 0.0;
            for (int c = 0; c < D; c++) acc[c] = 0.0;
            for (int s = 0; s < S; s++) {
                if (enc_mask != NULL && enc_mask[b * S + s] == 0)
                    continue;                       /* padded encoder token */
                double score = 0.0;
                for (int c = 0; c < D; c++)
                    score += (double)Q[t * D + c] * K[s * D + c];
                score *= scale;
                double nm = score > run_max ? score : run_max;
                double fix = exp(run_max - nm);     /* exp(-inf) = 0 on the first key */
                double e = exp(score - nm);
                run_sum = run_sum * fix + e;
                for (int c = 0; c < D; c++)
                    acc[c] = acc[c] * fix + e * V[s * D + c];
                run_max = nm;
            }
            for (int c = 0; c < D; c++)
                O[t * D + c] = run_sum > 0.0 ? (float)(acc[c] / run_sum) : 0.0f;
        }
    }
}
