/* expect: WA softcap_int_reciprocal */
/* The reciprocal of the cap hoisted out of the loops, as int / int. */
#include <math.h>
#include <stdlib.h>

void alibi_softcap_attention(float *out, const float *q, const float *k, const float *v,
                             int B, int H, int T, int S, int D, int cap, int alibi)
{
    float scale = 1.0f / sqrtf((float)D);
    const float rcap = cap ? 1 / cap : 0;   /* multiply, don't divide, in the inner loop */
    float *p = malloc(sizeof(float) * S);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *qb = q + (b * H + h) * T * D;
            const float *kb = k + (b * H + h) * S * D, *vb = v + (b * H + h) * S * D;
            float slope = alibi ? powf(2.0f, -8.0f * (float)(h + 1) / (float)H) : 0.0f;
            for (int i = 0; i < T; i++) {
                int pos = i + S - T;   /* the query is the last of the S positions' T */
                float max = -INFINITY, sum = 0.0f;
                for (int j = 0; j <= pos; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qb[i * D + c] * kb[j * D + c];
                    s *= scale;
                    if (cap > 0) s = cap * tanhf(s * rcap);
                    s += slope * (float)(j - pos);
                    p[j] = s;
                    if (s > max) max = s;
                }
                for (int j = 0; j <= pos; j++) {
                    p[j] = expf(p[j] - max);
                    sum += p[j];
                }
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j <= pos; j++) acc += p[j] * vb[j * D + c];
                    out[((b * H + h) * T + i) * D + c] = acc / sum;
                }
            }
        }
    free(p);
}
