/* expect: WA padding_after_softmax */
/* The causal limit bounds the loops, so the softmax runs over keys
 * 0 .. i + S - T; the padding is handled afterwards, by zeroing the padded
 * keys' weights, and the rest is not renormalised. */
#include <math.h>
#include <stdlib.h>

void sdpa(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    float *w = malloc(sizeof(float) * (size_t)S);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *qh = q + (size_t)(b * H + h) * T * D;
            const float *kh = k + (size_t)(b * H + h) * S * D, *vh = v + (size_t)(b * H + h) * S * D;
            float *oh = out + (size_t)(b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                int n = causal ? i + S - T + 1 : S;     /* keys 0 .. n-1 */
                float best = -INFINITY, total = 0.0f;
                for (int j = 0; j < n; j++) {
                    float dp = 0.0f;
                    for (int c = 0; c < D; c++) dp += qh[i * D + c] * kh[j * D + c];
                    w[j] = dp / sqrtf((float)D);
                    if (w[j] > best) best = w[j];
                }
                for (int j = 0; j < n; j++) total += w[j] = expf(w[j] - best);
                for (int j = 0; j < n; j++) {
                    w[j] /= total;
                    if (mask && mask[b * S + j] == 0) w[j] = 0.0f;   /* padding, after the softmax */
                }
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j < n; j++) acc += w[j] * vh[j * D + c];
                    oh[i * D + c] = acc;
                }
            }
        }
    free(w);
}
