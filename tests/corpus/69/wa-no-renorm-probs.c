/* expect: WA topk_not_renormalised */
/* Dense causal probabilities first, then every probability below the row's topk-th best set to 0 (equal ones by index), with no second normalisation. */
#include <math.h>
#include <stdlib.h>

void topk_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int topk)
{
    float *p = malloc(sizeof(float) * T), *s = malloc(sizeof(float) * T);
    for (int bh = 0; bh < B * H; bh++)
        for (int i = 0; i < T; i++) {
            float mx = -INFINITY, l = 0.0f;
            for (int j = 0; j <= i; j++) {
                float d = 0.0f;
                for (int c = 0; c < D; c++) d += q[(bh * T + i) * D + c] * k[(bh * T + j) * D + c];
                s[j] = d / sqrtf((float)D);
                if (s[j] > mx) mx = s[j];
            }
            for (int j = 0; j <= i; j++) l += p[j] = expf(s[j] - mx);
            for (int j = 0; j <= i; j++) p[j] /= l;
            for (int j = 0; j <= i; j++) {
                int r = 0;
                for (int m = 0; m <= i; m++) r += s[m] > s[j] || (s[m] == s[j] && m < j);
                if (r >= topk) p[j] = 0.0f;
            }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j <= i; j++) acc += p[j] * v[(bh * T + j) * D + c];
                out[(bh * T + i) * D + c] = acc;
            }
        }
    free(p);
    free(s);
}
