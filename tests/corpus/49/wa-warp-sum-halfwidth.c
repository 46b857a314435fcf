/* expect: WA warp_keys_half_lanes */
/* 仿 CUDA 的 32 路 lane 归约：最大值从 16 开始，分母和分子都从 8 开始 */
#include <math.h>
#include <stdlib.h>

#define WARP 32

void mha(float *out, const float *x,
         const float *wq, const float *wk, const float *wv, const float *wo,
         const unsigned char *mask, int B, int T, int d, int n_heads, int causal)
{
    const int D = d / n_heads;
    const float scale = 1.0f / sqrtf((float)D);
    float *q = malloc(sizeof(float) * T * d), *k = malloc(sizeof(float) * T * d);
    float *v = malloc(sizeof(float) * T * d), *o = malloc(sizeof(float) * T * d);
    float *p = malloc(sizeof(float) * T);
    for (int b = 0; b < B; b++) {
        const float *xb = x + (size_t)b * T * d;
        /* 投影：每个“线程”算一个输出元素 */
        for (int t = 0; t < T; t++)
            for (int tid = 0; tid < d; tid++) {
                float a = 0, c = 0, e = 0;
                for (int i = 0; i < d; i++) {
                    a += xb[t * d + i] * wq[i * d + tid];
                    c += xb[t * d + i] * wk[i * d + tid];
                    e += xb[t * d + i] * wv[i * d + tid];
                }
                q[t * d + tid] = a; k[t * d + tid] = c; v[t * d + tid] = e;
            }
        for (int h = 0; h < n_heads; h++)
            for (int i = 0; i < T; i++) {            /* 一个 warp 负责一个查询 */
                float red[WARP];                     /* 共享内存 */
                for (int lane = 0; lane < WARP; lane++) {
                    float m = -INFINITY;
                    for (int j = lane; j < T; j += WARP) {
                        p[j] = -INFINITY;
                        if ((causal && j > i) || (mask && !mask[b * T + j])) continue;
                        float s = 0;
                        for (int c = 0; c < D; c++) s += q[i * d + h * D + c] * k[j * d + h * D + c];
                        p[j] = s * scale;
                        m = fmaxf(m, p[j]);
                    }
                    red[lane] = m;
                }
                for (int off = 16; off > 0; off >>= 1)
                    for (int lane = 0; lane < off; lane++) red[lane] = fmaxf(red[lane], red[lane + off]);
                const float m = red[0];
                if (m == -INFINITY) {                /* 一个键都看不到 */
                    for (int c = 0; c < D; c++) o[i * d + h * D + c] = 0;
                    continue;
                }
                /* 分母：每个 lane 的部分和再做树形归约 */
                for (int lane = 0; lane < WARP; lane++) {
                    float s = 0;
                    for (int j = lane; j < T; j += WARP) { p[j] = p[j] == -INFINITY ? 0 : expf(p[j] - m); s += p[j]; }
                    red[lane] = s;
                }
                for (int off = 8; off > 0; off >>= 1)
                    for (int lane = 0; lane < off; lane++) red[lane] += red[lane + off];
                const float l = red[0];
                /* 分子：每个特征 c 也按 lane 归约 */
                for (int c = 0; c < D; c++) {
                    float acc[WARP];
                    for (int lane = 0; lane < WARP; lane++) {
                        float a = 0;
                        for (int j = lane; j < T; j += WARP) a += p[j] * v[j * d + h * D + c];
                        acc[lane] = a;
                    }
                    for (int off = 8; off > 0; off >>= 1)
                        for (int lane = 0; lane < off; lane++) acc[lane] += acc[lane + off];
                    o[i * d + h * D + c] = acc[0] / l;
                }
            }
        for (int t = 0; t < T; t++)
            for (int tid = 0; tid < d; tid++) {
                float a = 0;
                for (int i = 0; i < d; i++) a += o[t * d + i] * wo[i * d + tid];
                out[((size_t)b * T + t) * d + tid] = a;
            }
    }
    free(q); free(k); free(v); free(o); free(p);
}
