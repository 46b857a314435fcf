/* expect: WA warp_keys_half_lanes */
/* 照着 CUDA 的 decode 内核写：一个 warp 32 个 lane 分摊缓存里的键，每个 lane
 * 先算自己的部分和与部分输出，再树形归约；可归约的偏移量从 8 开始（当成了
 * 16 个 lane），lane 16..31 的那一半结果没加进来。最大值用的是整行。 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { LANES = 32 };

void decode_step(float *out, float *k_cache, float *v_cache, int *len,
                 const float *q, const float *k, const float *v,
                 int B, int S_max, int H, int D)
{
    const int row = H * D;
    const float scale = 1.0f / sqrtf((float)D);
    float *part = malloc(sizeof(float) * LANES * (D + 1));   /* 每个 lane：部分和 + D 维部分输出 */
    float *s = malloc(sizeof(float) * S_max);
    for (int b = 0; b < B; b++) {
        float *kc = k_cache + (size_t)b * S_max * row, *vc = v_cache + (size_t)b * S_max * row;
        const int n = len[b] + 1;
        memcpy(kc + (size_t)len[b] * row, k + b * row, sizeof(float) * row);
        memcpy(vc + (size_t)len[b] * row, v + b * row, sizeof(float) * row);
        for (int h = 0; h < H; h++) {
            const float *qh = q + b * row + h * D;
            float mx = -INFINITY;
            for (int j = 0; j < n; j++) {
                float d = 0.0f;
                for (int c = 0; c < D; c++) d += qh[c] * kc[(size_t)j * row + h * D + c];
                s[j] = d * scale;
                if (s[j] > mx) mx = s[j];
            }
            memset(part, 0, sizeof(float) * LANES * (D + 1));
            for (int lane = 0; lane < LANES; lane++)
                for (int j = lane; j < n; j += LANES) {
                    float e = expf(s[j] - mx);
                    float *pl = part + lane * (D + 1);
                    pl[0] += e;
                    for (int c = 0; c < D; c++) pl[1 + c] += e * vc[(size_t)j * row + h * D + c];
                }
            for (int off = 8; off > 0; off >>= 1)   /* 树形归约 */
                for (int lane = 0; lane < off; lane++)
                    for (int c = 0; c <= D; c++) part[lane * (D + 1) + c] += part[(lane + off) * (D + 1) + c];
            for (int c = 0; c < D; c++) out[b * row + h * D + c] = part[1 + c] / part[0];
        }
        len[b] = n;
    }
    free(part);
    free(s);
}
