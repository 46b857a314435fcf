/* expect: WA values_read_from_k */
/* Decoder queries over the encoder's keys; one pointer per head for the
 * encoder rows, reused by the score loop and the output loop. */
#include <math.h>
#include <stdlib.h>

void cross_attention(float *out, const float *q, const float *k, const float *v,
                     const unsigned char *enc_mask, int B, int H, int T, int S, int D)
{
    float *w = malloc(sizeof(float) * (size_t)S);
    const float inv = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++) {
        const unsigned char *real = enc_mask ? enc_mask + (size_t)b * S : NULL;
        for (int h = 0; h < H; h++) {
            const float *enc = k + ((size_t)b * H + h) * S * D;
            const float *dec = q + ((size_t)b * H + h) * T * D;
            float *o = out + ((size_t)b * H + h) * T * D;
            for (int t = 0; t < T; t++, dec += D, o += D) {
                float big = -INFINITY, z = 0.0f;
                for (int s = 0; s < S; s++) {
                    if (real && !real[s]) { w[s] = -INFINITY; continue; }
                    float x = 0.0f;
                    for (int c = 0; c < D; c++) x += dec[c] * enc[s * D + c];
                    w[s] = x * inv;
                    if (w[s] > big) big = w[s];
                }
                for (int s = 0; s < S; s++) z += w[s] = w[s] == -INFINITY ? 0.0f : expf(w[s] - big);
                for (int c = 0; c < D; c++) {
                    float y = 0.0f;
                    for (int s = 0; s < S; s++) y += w[s] * enc[s * D + c];
                    o[c] = z > 0.0f ? y / z : 0.0f;
                }
            }
        }
    }
    free(w);
}
