/* expect: WA softmax_overflow */
/* Skips padding and guards the empty encoder, but sums expf(score) with no max: Inf / Inf on large scores. */
#include <math.h>
#include <stddef.h>

void cross_attention(float *out, const float *q, const float *k, const float *v,
                     const unsigned char *enc_mask, int B, int H, int T, int S, int D)
{
    const float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++) {
        const unsigned char *mrow = enc_mask ? enc_mask + (size_t)b * S : NULL;
        for (int h = 0; h < H; h++) {
            const float *Q = q + ((size_t)b * H + h) * T * D;
            const float *K = k + ((size_t)b * H + h) * S * D;
            const float *V = v + ((size_t)b * H + h) * S * D;
            float *O = out + ((size_t)b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                float *o = O + (size_t)i * D;
                float l = 0.0f;
                for (int c = 0; c < D; c++) o[c] = 0.0f;
                for (int j = 0; j < S; j++) {
                    if (mrow && !mrow[j]) continue;   /* padding */
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += Q[i * D + c] * K[j * D + c];
                    s *= scale;
                    float p = expf(s);
                    l += p;
                    for (int c = 0; c < D; c++) o[c] += p * V[j * D + c];
                }
                if (l > 0.0f)   /* l == 0: an empty encoder, the zeros stay */
                    for (int c = 0; c < D; c++) o[c] /= l;
            }
        }
    }
}
