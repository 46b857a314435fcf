/* expect: WA mask_fill_zero */
/* The score multiplied by enc_mask[j]: a padded key scores 0 and still takes weight. */
#include <math.h>
#include <stdlib.h>

static float score(const float *a, const float *b, int D) {
    float s = 0; for (int c = 0; c < D; c++) s += a[c] * b[c]; return s / sqrtf((float)D);
}

void cross_attention(float *out, const float *q, const float *k, const float *v,
                     const unsigned char *enc_mask, int B, int H, int T, int S, int D)
{
    float *p = malloc(sizeof(float) * S);
    for (int b = 0; b < B; b++) for (int h = 0; h < H; h++) for (int i = 0; i < T; i++) {
        size_t qo = ((size_t)(b * H + h) * T + i) * D, ko = (size_t)(b * H + h) * S * D;
        float mx = -INFINITY;
        for (int j = 0; j < S; j++) {
            float m = enc_mask ? (float)enc_mask[b * S + j] : 1.0f;
            p[j] = score(q + qo, k + ko + j * D, D) * m;
            if (p[j] > mx) mx = p[j];
        }
        float sum = 0;
        for (int j = 0; j < S; j++) { p[j] = expf(p[j] - mx); sum += p[j]; }
        for (int c = 0; c < D; c++) {
            float a = 0;
            for (int j = 0; j < S; j++) a += p[j] * v[ko + j * D + c];
            out[qo + c] = a / sum;
        }
    }
    free(p);
}
