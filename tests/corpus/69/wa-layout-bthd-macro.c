/* expect: WA layout_bthd */
/* Tokens first, as a [B, T, H, D] tensor: a macro finds row t of head h, rows H * D apart. */
#include <math.h>
#include <stdlib.h>

void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    float scale = 1.0f / sqrtf((float)D);
    float *s = malloc(sizeof(float) * T);
    char *keep = malloc(T);
    for (int bh = 0; bh < B * H; bh++) {
        const int b = bh / H, h = bh % H;
#define AT(x, t) ((x) + (((size_t)b * T + (t)) * H + h) * D)
        const float *qh = AT(q, 0), *kh = AT(k, 0), *vh = AT(v, 0);
        float *oh = AT(out, 0);
        for (int i = 0; i < T; i++) {
            for (int j = 0; j <= i; j++) {   /* the future is never a candidate */
                float dot = 0.0f;
                for (int c = 0; c < D; c++) dot += qh[(size_t)i * H * D + c] * kh[(size_t)j * H * D + c];
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
                    if (keep[j]) acc += expf(s[j] - max) * vh[(size_t)j * H * D + c];
                oh[(size_t)i * H * D + c] = acc / sum;   /* the best key is always kept: sum >= 1 */
            }
        }
    }
    free(s);
    free(keep);
}
