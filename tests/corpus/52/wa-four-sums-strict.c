/* expect: WA dot_last_block_skipped */
/* 四路累加器展开点积：主循环 c + 4 < D，余数从 D - D % 4 开始；D 是 4 的倍数时最后四维丢了 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

void decode_step(float *out, float *k_cache, float *v_cache, int *len,
                 const float *q, const float *k, const float *v,
                 int B, int S_max, int H, int D)
{
    int row = H * D;   /* one cached position: all heads of one token */
    float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * S_max);
    for (int b = 0; b < B; b++) {
        float *kc = k_cache + (size_t)b * S_max * row, *vc = v_cache + (size_t)b * S_max * row;
        int n = len[b];
        memcpy(kc + n * row, k + b * row, sizeof(float) * row);
        memcpy(vc + n * row, v + b * row, sizeof(float) * row);
        for (int h = 0; h < H; h++) {
            const float *qh = q + b * row + h * D;
            float max = -INFINITY, sum = 0.0f;
            for (int j = 0; j <= n; j++) {   /* n old keys and the new one */
                const float *kj = kc + j * row + h * D;
                float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
                for (int c = 0; c + 4 < D; c += 4) {   /* 四路并行，减少依赖链 */
                    s0 += qh[c] * kj[c];
                    s1 += qh[c + 1] * kj[c + 1];
                    s2 += qh[c + 2] * kj[c + 2];
                    s3 += qh[c + 3] * kj[c + 3];
                }
                for (int c = D - D % 4; c < D; c++) s0 += qh[c] * kj[c];
                float s = (s0 + s1) + (s2 + s3);
                p[j] = s * scale;
                if (p[j] > max) max = p[j];
            }
            for (int j = 0; j <= n; j++) {
                p[j] = expf(p[j] - max);
                sum += p[j];
            }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j <= n; j++) acc += p[j] * vc[j * row + h * D + c];
                out[b * row + h * D + c] = acc / sum;
            }
        }
        len[b] = n + 1;
    }
    free(p);
}
