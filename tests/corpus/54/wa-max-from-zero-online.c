/* expect: WA max_starts_at_zero */
/* Online softmax, padding skipped, empty encoder guarded, the running max starting at 0.0f. */
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
                float m = 0.0f, l = 0.0f;
                for (int c = 0; c < D; c++) o[c] = 0.0f;
                for (int j = 0; j < S; j++) {
                    if (mrow && !mrow[j]) continue;   /* padding */
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += Q[i * D + c] * K[j * D + c];
                    s *= scale;
                    float mn = s > m ? s : m;
                    float corr = expf(m - mn), p = expf(s - mn);
                    l = l * corr + p;
                    for (int c = 0; c < D; c++) o[c] = o[c] * corr + p * V[j * D + c];
                    m = mn;
                }
                if (l > 0.0f)   /* l == 0: an empty encoder, the zeros stay */
                    for (int c = 0; c < D; c++) o[c] /= l;
            }
        }
    }
}
