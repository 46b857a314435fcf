/* expect: WA exp_factor_ln_two */
/* exp2f with M_LN2 folded into the scale where log2(e) belongs */
#include <math.h>
#include <stdlib.h>

void gqa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int Hkv, int T, int S, int D, int causal)
{
    int group = H / Hkv;               /* query heads per kv head */
    float scale = 0.69314718f / sqrtf((float)D);   /* fold the base change into the scale */
    float *p = malloc(sizeof(float) * S);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *qh = q + (b * H + h) * T * D;
            const float *kh = k + (b * Hkv + h / group) * S * D;
            const float *vh = v + (b * Hkv + h / group) * S * D;
            float *oh = out + (b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                int last = causal ? i + S - T : S - 1;   /* the KV-cache offset */
                float max = -INFINITY, sum = 0.0f;
                for (int j = 0; j <= last; j++) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qh[i * D + c] * kh[j * D + c];
                    p[j] = s * scale;
                    if (p[j] > max) max = p[j];
                }
                for (int j = 0; j <= last; j++) {
                    p[j] = exp2f(p[j] - max);
                    sum += p[j];
                }
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j <= last; j++) acc += p[j] * vh[j * D + c];
                    oh[i * D + c] = acc / sum;
                }
            }
        }
    free(p);
}
