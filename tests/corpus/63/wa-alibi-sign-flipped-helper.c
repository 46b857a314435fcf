/* expect: WA alibi_sign_flipped */
/* Two passes adding slope * (pos - j): older keys favoured. */
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
                if (cap) s = cap * tanhf(s / cap);
                p[j] = s + m * (float)(pos - j);
                if (p[j] > max) max = p[j];
            }
            for (int j = 0; j <= pos; j++) {
                p[j] = expf(p[j] - max);
                sum += p[j];
            }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j <= pos; j++) acc += p[j] * v[(bh * S + j) * D + c];
                out[(bh * T + i) * D + c] = acc / sum;
            }
        }
    }
    free(p);
}
