/* expect: WA softcap_int_reciprocal */
/* 1 / cap precomputed with an int cap: 0 whenever cap > 1. */
#include <math.h>
#include <stdlib.h>

void alibi_softcap_attention(float *out, const float *q, const float *k, const float *v,
                             int B, int H, int T, int S, int D, int cap, int alibi)
{
    float scale = 1.0f / sqrtf((float)D);
    float inv_cap = cap > 0 ? 1 / cap : 0.0f;
    float *p = malloc(sizeof(float) * S);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *qb = q + (b * H + h) * T * D;
            const float *kb = k + (b * H + h) * S * D, *vb = v + (b * H + h) * S * D;
            float slope = alibi ? powf(2.0f, -8.0f * (float)(h + 1) / (float)H) : 0.0f;
            for (int i = 0; i < T; i++) {
                int pos = i + S - T;
                float mx = -INFINITY, sum = 0.0f;
                for (int j = 0; j <= pos; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qb[i * D + c] * kb[j * D + c];
                    s *= scale;
                    if (cap > 0) s = (float)cap * tanhf(s * inv_cap);
                    s += slope * (float)(j - pos);
                    p[j] = s;
                    if (s > mx) mx = s;
                }
                for (int j = 0; j <= pos; j++) { p[j] = expf(p[j] - mx); sum += p[j]; }
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j <= pos; j++) acc += p[j] * vb[j * D + c];
                    out[((b * H + h) * T + i) * D + c] = acc / sum;
                }
            }
        }
    free(p);
}
