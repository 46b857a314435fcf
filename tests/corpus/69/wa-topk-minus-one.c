/* expect: WA topk_off_by_one */
/* Keeps a key when its rank, counted from 0, is below topk - 1: one key too few (none at topk = 1). */
#include <math.h>
#include <stdlib.h>

void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    float scale = 1.0f / sqrtf((float)D);
    float *s = malloc(sizeof(float) * T);
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < T; i++) {
            for (int j = 0; j <= i; j++) {
                float dot = 0.0f;
                for (int c = 0; c < D; c++) dot += q[(bh * T + i) * D + c] * k[(bh * T + j) * D + c];
                s[j] = dot * scale;
            }
            float max = -INFINITY, sum = 0.0f;
            for (int j = 0; j <= i; j++) if (s[j] > max) max = s[j];
            for (int c = 0; c < D; c++) out[(bh * T + i) * D + c] = 0.0f;
            for (int j = 0; j <= i; j++) {
                int rank = 0;
                for (int m = 0; m <= i; m++) rank += s[m] > s[j] || (s[m] == s[j] && m < j);
                if (rank >= topk - 1) continue;
                float w = expf(s[j] - max);
                sum += w;
                for (int c = 0; c < D; c++) out[(bh * T + i) * D + c] += w * v[(bh * T + j) * D + c];
            }
            for (int c = 0; c < D; c++) out[(bh * T + i) * D + c] /= sum;
        }
    free(s);
}
