/* expect: WA layout_bthd */
/* q, k, v and out indexed as [B, T, H, D], the heads of a token side by side. */
#include <math.h>
#include <stdlib.h>

#define AT(x, b, h, t, c) ((x)[(((long)(b) * T + (t)) * H + (h)) * D + (c)])

void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    float scale = 1.0f / sqrtf((float)D);
    float *s = malloc(sizeof(float) * T);
    char *keep = malloc(T);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < T; i++) {
                for (int j = 0; j <= i; j++) {
                    float dot = 0.0f;
                    for (int c = 0; c < D; c++) dot += AT(q, b, h, i, c) * AT(k, b, h, j, c);
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
                    if (keep[j]) sum += expf(s[j] - max);
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j <= i; j++)
                        if (keep[j]) acc += expf(s[j] - max) * AT(v, b, h, j, c);
                    AT(out, b, h, i, c) = acc / sum;
                }
            }
    free(s);
    free(keep);
}
