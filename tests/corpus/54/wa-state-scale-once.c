/* expect: WA depends_on_earlier_calls */
/* Computes 1/sqrt(D) into a static on the first call only. */
#include <math.h>
#include <stddef.h>

static float bias[65], sc[65];   /* S <= 65 */

void cross_attention(float *out, const float *q, const float *k, const float *v,
                     const unsigned char *enc_mask, int B, int H, int T, int S, int D)
{
    static float inv = -1.0f;
    if (inv < 0.0f) inv = 1.0f / sqrtf((float)D);   /* work it out once */
    for (int b = 0; b < B; b++) {
        /* the encoder mask as an additive bias, once per sequence */
        for (int j = 0; j < S; j++)
            bias[j] = (enc_mask == NULL || enc_mask[b * S + j]) ? 0.0f : -INFINITY;
        for (int h = 0; h < H; h++) {
            const float *qb = q + (b * H + h) * T * D;
            const float *kb = k + (b * H + h) * S * D, *vb = v + (b * H + h) * S * D;
            float *ob = out + (b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                float mx = -INFINITY;
                for (int j = 0; j < S; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qb[i * D + c] * kb[j * D + c];
                    sc[j] = s * inv + bias[j];
                    if (sc[j] > mx) mx = sc[j];
                }
                if (mx == -INFINITY) {   /* every key masked */
                    for (int c = 0; c < D; c++) ob[i * D + c] = 0.0f;
                    continue;
                }
                float sum = 0.0f;
                for (int j = 0; j < S; j++) sum += sc[j] = expf(sc[j] - mx);
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j < S; j++) acc += sc[j] * vb[j * D + c];
                    ob[i * D + c] = acc / sum;
                }
            }
        }
    }
}
