/* expect: WA warp_sum_half_lanes */
/* A 32-lane tree sum of the softmax denominator starting at offset 8: lanes 16-31 are lost once a window holds more than 16 keys (case wide-window). */
#include <math.h>
#include <stdlib.h>

#define WARP 32

/* 每个 "线程" 负责一个查询；对窗口里的键按 32 个 lane 分摊，再做树形归约 */
void swa(float *out, const float *q, const float *k, const float *v,
         int B, int H, int T, int D, int W)
{
    float scale = 1.0f / sqrtf((float)D);
    float sh_p[65];          /* "共享内存" 里的概率 */
    float lane_max[WARP], lane_sum[WARP];
    for (int blockIdx = 0; blockIdx < B * H; blockIdx++) {
        const float *Q = q + (size_t)blockIdx * T * D;
        const float *K = k + (size_t)blockIdx * T * D;
        const float *V = v + (size_t)blockIdx * T * D;
        float *O = out + (size_t)blockIdx * T * D;
        for (int i = 0; i < T; i++) {
            int lo = i - W + 1 < 0 ? 0 : i - W + 1;
            /* 第一步：每个 lane 算自己负责的键的分数和局部最大值 */
            for (int threadIdx = 0; threadIdx < WARP; threadIdx++) {
                lane_max[threadIdx] = -INFINITY;
                for (int j = lo + threadIdx; j <= i; j += WARP) {
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += Q[i * D + c] * K[j * D + c];
                    sh_p[j] = s * scale;
                    if (sh_p[j] > lane_max[threadIdx]) lane_max[threadIdx] = sh_p[j];
                }
            }
            for (int off = 16; off > 0; off >>= 1)
                for (int t = 0; t < off; t++)
                    if (lane_max[t + off] > lane_max[t]) lane_max[t] = lane_max[t + off];
            float m = lane_max[0];
            /* 第二步：指数和局部求和 */
            for (int threadIdx = 0; threadIdx < WARP; threadIdx++) {
                lane_sum[threadIdx] = 0.0f;
                for (int j = lo + threadIdx; j <= i; j += WARP) {
                    sh_p[j] = expf(sh_p[j] - m);
                    lane_sum[threadIdx] += sh_p[j];
                }
            }
            /* 树形归约求和 */
            for (int off = 8; off > 0; off >>= 1)
                for (int t = 0; t < off; t++)
                    lane_sum[t] += lane_sum[t + off];
            float inv = 1.0f / lane_sum[0];
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = lo; j <= i; j++) acc += sh_p[j] * V[j * D + c];
                O[i * D + c] = acc * inv;
            }
        }
    }
}
