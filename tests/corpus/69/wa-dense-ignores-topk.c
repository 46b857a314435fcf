/* expect: WA */
/* Plain causal attention over every visible key: topk is never used. */
#include <math.h>

void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    (void)topk;
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < T; i++) {
            float mx = -INFINITY, s[4096], l = 0.0f;
            for (int j = 0; j <= i; j++) {
                float d = 0.0f;
                for (int c = 0; c < D; c++) d += q[(bh * T + i) * D + c] * k[(bh * T + j) * D + c];
                s[j] = d / sqrtf((float)D);
                if (s[j] > mx) mx = s[j];
            }
            for (int j = 0; j <= i; j++) l += s[j] = expf(s[j] - mx);
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j <= i; j++) acc += s[j] * v[(bh * T + j) * D + c];
                out[(bh * T + i) * D + c] = acc / l;
            }
        }
}
