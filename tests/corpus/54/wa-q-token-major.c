/* expect: WA q_layout_bthd */
/* 解码器的查询按拆头之前的 [B, T, H, D] 来取（q[((b*T + i)*H + h)*D + c]），编码器的 k、v 按 [B, H, S, D] 读对了 */
#include <math.h>
#include <stdlib.h>

void cross_attention(float *out, const float *q, const float *k, const float *v,
                     const unsigned char *enc_mask, int B, int H, int T, int S, int D)
{
    float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * S);
    for (int b = 0; b < B; b++) {
        const unsigned char *real = enc_mask ? enc_mask + b * S : NULL;   /* [S] row of batch b */
        for (int h = 0; h < H; h++) {
            const float *qb = q + b * T * H * D + h * D;   /* 每个词元一行 H*D */
            const float *kb = k + (b * H + h) * S * D, *vb = v + (b * H + h) * S * D;
            for (int i = 0; i < T; i++) {
                float max = -INFINITY, sum = 0.0f;
                for (int j = 0; j < S; j++) {
                    p[j] = -INFINITY;
                    if (real && !real[j]) continue;
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += qb[i * H * D + c] * kb[j * D + c];
                    p[j] = s * scale;
                    if (p[j] > max) max = p[j];
                }
                for (int j = 0; j < S; j++) {
                    p[j] = p[j] == -INFINITY ? 0.0f : expf(p[j] - max);
                    sum += p[j];
                }
                /* No real encoder token: sum is 0, and the output is zeros. */
                for (int c = 0; c < D; c++) {
                    float acc = 0.0f;
                    for (int j = 0; j < S; j++) acc += p[j] * vb[j * D + c];
                    out[(b * H + h) * T * D + i * D + c] = sum > 0.0f ? acc / sum : 0.0f;
                }
            }
        }
    }
    free(p);
}
