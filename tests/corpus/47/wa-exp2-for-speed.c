/* expect: WA exp_base_two */
/* 换成 exp2f 图快，却没有乘 log2(e)：softmax 变成以 2 为底，权重太平 */
#include <math.h>
#include <stdlib.h>

void sdpa(float *out, const float *q, const float *k, const float *v,
          const unsigned char *mask, int B, int H, int T, int S, int D, int causal)
{
    float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * S);
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const float *qh = q + (b * H + h) * T * D;
            const float *kh = k + (b * H + h) * S * D;
            const float *vh = v + (b * H + h) * S * D;
            float *oh = out + (b * H + h) * T * D;
            for (int i = 0; i < T; i++) {
                /* The T queries are the last T of the S positions. */
                float max = -INFINITY;
                for (int j = 0; j < S; j++) {
                    int seen = (!mask || mask[b * S + j]) && (!causal || j <= i + S - T);
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qh[i * D + c] * kh[j * D + c];
                    p[j] = seen ? s * scale : -INFINITY;
                    if (p[j] > max) max = p[j];
                }
                float sum = 0.0f;
                for (int j = 0; j < S; j++) {
                    p[j] = p[j] == -INFINITY ? 0.0f : exp2f(p[j] - max);   /* exp2 比 exp 快 */
                    sum += p[j];
                }
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j < S; j++) acc += p[j] * vh[j * D + c];
                    oh[i * D + c] = sum > 0.0f ? acc / sum : 0.0f;   /* no key seen: zeros */
                }
            }
        }
    free(p);
}
