/* expect: WA exp_factor_extra */
/* log2(e) multiplies the scores, and exp2f gets it a second time */
#include <math.h>
#include <stdlib.h>

void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    float scale = 1.44269504f / sqrtf((float)D);   /* log2(e) folded in */
    float *s = malloc(sizeof(float) * T);
    char *keep = malloc(T);
    for (int bh = 0; bh < B * H; bh++) {
        const float *qh = q + bh * T * D, *kh = k + bh * T * D, *vh = v + bh * T * D;
        float *oh = out + bh * T * D;
        for (int i = 0; i < T; i++) {
            for (int j = 0; j <= i; j++) {   /* the future is never a candidate */
                float dot = 0.0f;
                for (int c = 0; c < D; c++) dot += qh[i * D + c] * kh[j * D + c];
                s[j] = dot * scale;
            }
            float max = -INFINITY, sum = 0.0f;
            for (int j = 0; j <= i; j++) {
                int rank = 0;
                for (int m = 0; m <= i; m++)
                    if (s[m] > s[j] || (s[m] == s[j] && m < j)) rank++;
                keep[j] = rank < topk;
                if (keep[j] && s[j] > max) max = s[j];
            }
            for (int j = 0; j <= i; j++)
                if (keep[j]) sum += exp2f((s[j] - max) * 1.44269504f);
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j <= i; j++)
                    if (keep[j]) acc += exp2f((s[j] - max) * 1.44269504f) * vh[j * D + c];
                oh[i * D + c] = acc / sum;   /* the best key is always kept: sum >= 1 */
            }
        }
    }
    free(s);
    free(keep);
}
