/* expect: WA max_not_per_row */
/* The softmax max starts at -inf once per head and only grows across its queries. */
#include <math.h>
#include <stdlib.h>

void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    float scale = 1.0f / sqrtf((float)D);
    float *s = malloc(sizeof(float) * T);
    char *keep = malloc(T);
    for (int bh = 0; bh < B * H; bh++) {
        const float *qh = q + bh * T * D, *kh = k + bh * T * D, *vh = v + bh * T * D;
        float *oh = out + bh * T * D;
        float max = -INFINITY;
        for (int i = 0; i < T; i++) {
            for (int j = 0; j <= i; j++) {
                float dot = 0.0f;
                for (int c = 0; c < D; c++) dot += qh[i * D + c] * kh[j * D + c];
                s[j] = dot * scale;
            }
            float sum = 0.0f;
            for (int j = 0; j <= i; j++) {
                int rank = 0;
                for (int m = 0; m <= i; m++)
                    if (s[m] > s[j] || (s[m] == s[j] && m < j)) rank++;
                keep[j] = rank < topk;
                if (keep[j] && s[j] > max) max = s[j];
            }
            for (int j = 0; j <= i; j++)
                if (keep[j]) sum += expf(s[j] - max);
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j <= i; j++)
                    if (keep[j]) acc += expf(s[j] - max) * vh[j * D + c];
                oh[i * D + c] = acc / sum;
            }
        }
    }
    free(s);
    free(keep);
}
