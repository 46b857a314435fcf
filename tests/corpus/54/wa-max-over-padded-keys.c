/* expect: WA max_over_hidden_keys */
/* Scores for every encoder token first, the row max over all of them, and the padding dropped only when the exps are summed: a padded token that scores far above the real ones makes their exps underflow. */
#include <math.h>
#include <stdlib.h>

void cross_attention(float *out, const float *q, const float *k, const float *v,
                     const unsigned char *enc_mask, int B, int H, int T, int S, int D)
{
    const float inv = 1.0f / sqrtf((float)D);
    float *score = malloc(sizeof *score * (size_t)S);
    for (int bh = 0; bh < B * H; bh++) {
        const int b = bh / H;
        const float *K = k + (size_t)bh * S * D, *V = v + (size_t)bh * S * D;
        for (int t = 0; t < T; t++) {
            const float *qt = q + ((size_t)bh * T + t) * D;
            float *o = out + ((size_t)bh * T + t) * D;
            float top = -INFINITY;
            for (int s = 0; s < S; s++) {
                float dot = 0.0f;
                for (int c = 0; c < D; c++) dot += qt[c] * K[(size_t)s * D + c];
                score[s] = dot * inv;
                top = fmaxf(top, score[s]);
            }
            float z = 0.0f;
            for (int s = 0; s < S; s++) {
                int keep = !enc_mask || enc_mask[(size_t)b * S + s];
                score[s] = keep ? expf(score[s] - top) : 0.0f;
                z += score[s];
            }
            for (int c = 0; c < D; c++) o[c] = 0.0f;
            if (z == 0.0f) continue;   /* an all-padding encoder: zeros */
            for (int s = 0; s < S; s++)
                for (int c = 0; c < D; c++) o[c] += score[s] / z * V[(size_t)s * D + c];
        }
    }
    free(score);
}
