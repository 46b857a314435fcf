/* expect: WA alibi_slopes_for_eight_heads */
/* Slopes 1/2, 1/4, 1/8, ... as in an 8-head model, for any H. */
#include <math.h>
#include <stddef.h>
void alibi_softcap_attention(float *out, const float *q, const float *k, const float *v,
                             int B, int H, int T, int S, int D, int cap, int alibi)
{
    float scale = 1.0f / sqrtf((float)D);
    for (int b = 0; b < B; b++)
    for (int h = 0; h < H; h++) {
        float slope = exp2f(-(float)(h + 1));
        const float *Q = q + (size_t)(b * H + h) * T * D;
        const float *K = k + (size_t)(b * H + h) * S * D;
        const float *V = v + (size_t)(b * H + h) * S * D;
        float *O = out + (size_t)(b * H + h) * T * D;
        for (int i = 0; i < T; i++) {
            int pos = i + S - T;
            float s[65];
            float m = -INFINITY;
            for (int j = 0; j <= pos; j++) {
                float d = 0;
                for (int c = 0; c < D; c++) d += Q[i * D + c] * K[j * D + c];
                d *= scale;
                if (cap > 0) d = (float)cap * tanhf(d / (float)cap);
                if (alibi) d += slope * (float)(j - pos);
                s[j] = d;
                if (d > m) m = d;
            }
            float den = 0;
            for (int j = 0; j <= pos; j++) { s[j] = expf(s[j] - m); den += s[j]; }
            for (int c = 0; c < D; c++) {
                float acc = 0;
                for (int j = 0; j <= pos; j++) acc += s[j] * V[j * D + c];
                O[i * D + c] = acc / den;
            }
        }
    }
}
