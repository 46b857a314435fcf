/* expect: WA warp_sum_half_lanes */
/* keys over 32 lanes, the denominator's tree reduction from offset 8 */
#include <math.h>
#include <stdlib.h>

#define WARP 32

/* 仿 CUDA：一个 warp 处理一个查询，lane t 负责键 t, t+32, ...；最后树形归约 */
void sink_attention(float *out, const float *q, const float *k, const float *v,
                    int B, int H, int T, int D, int n_sink, int window)
{
    float scale = 1.0f / sqrtf((float)D);
    float sh_s[65];
    float red[WARP];
    for (int blockIdx = 0; blockIdx < B * H; blockIdx++) {
        const float *Q = q + (size_t)blockIdx * T * D, *K = k + (size_t)blockIdx * T * D, *V = v + (size_t)blockIdx * T * D;
        for (int i = 0; i < T; i++) {
            /* 每个 lane 的局部最大值 */
            for (int lane = 0; lane < WARP; lane++) {
                red[lane] = -INFINITY;
                for (int j = lane; j < T; j += WARP) {
                    int vis = j <= i && (j < n_sink || j > i - window);
                    if (!vis) { sh_s[j] = -INFINITY; continue; }
                    float s = 0.0f;
                    for (int c = 0; c < D; c++) s += Q[i * D + c] * K[j * D + c];
                    sh_s[j] = s * scale;
                    red[lane] = fmaxf(red[lane], sh_s[j]);
                }
            }
            for (int off = 16; off > 0; off >>= 1)
                for (int lane = 0; lane < off; lane++) red[lane] = fmaxf(red[lane], red[lane + off]);
            float m = red[0];
            /* 局部求和 */
            for (int lane = 0; lane < WARP; lane++) {
                red[lane] = 0.0f;
                for (int j = lane; j < T; j += WARP) {
                    sh_s[j] = sh_s[j] == -INFINITY ? 0.0f : expf(sh_s[j] - m);
                    red[lane] += sh_s[j];
                }
            }
            for (int off = 8; off > 0; off >>= 1)
                for (int lane = 0; lane < off; lane++) red[lane] += red[lane + off];
            float l = red[0];
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j < T; j++) acc += sh_s[j] * V[j * D + c];
                out[((size_t)blockIdx * T + i) * D + c] = acc / l;
            }
        }
    }
}
