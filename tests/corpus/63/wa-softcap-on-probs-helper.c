/* expect: WA softcap_on_probs */
/* Two passes that cap the normalised probabilities instead of the scores. */
#include <math.h>
#include <stdlib.h>

static float alibi_slope(int h, int H)
{
    return powf(2.0f, -8.0f * (float)(h + 1) / (float)H);
}

void alibi_softcap_attention(float *out, const float *q, const float *k, const float *v,
                             int B, int H, int T, int S, int D, int cap, int alibi)
{
    float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * S);
    for (int bh = 0; bh < B * H; bh++) {
        int h = bh % H;
        float m = alibi ? alibi_slope(h, H) : 0.0f;
        for (int i = 0; i < T; i++) {
            int pos = i + S - T;
            float max = -INFINITY, sum = 0.0f;
            for (int j = 0; j <= pos; j++) {
                float d = 0.0f;
                for (int c = 0; c < D; c++) d += q[(bh * T + i) * D + c] * k[(bh * S + j) * D + c];
                float s = d * scale;
                p[j] = s + m * (float)(j - pos);
                if (p[j] > max) max = p[j];
            }
            for (int j = 0; j <= pos; j++) {
                p[j] = expf(p[j] - max);
                sum += p[j];
            }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j <= pos; j++) {
                    float pj = p[j] / sum;
                    if (cap) pj = cap * tanhf(pj / cap);
                    acc += pj * v[(bh * S + j) * D + c];
                }
                out[(bh * T + i) * D + c] = acc;
            }
        }
    }
    free(p);
}
