/* expect: WA */
/* CUDA-style tiles of 32 keys, the last one S % BC keys long: 0 when S is a multiple of 32, so only the long case (S = 2048) is wrong. Every way of every mistake would simulate that case first: the search stops at its time limit (search_cut) and names nothing. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BC 32   /* 每个 tile 32 个键，相当于一个 warp */

void flash_attention(float *out, float *lse, const float *q, const float *k,
                     const float *v, float *scratch, int B, int H, int T, int S,
                     int D, int causal, int n_scratch)
{
    (void)n_scratch;
    float *s_tile = scratch;   /* __shared__ float s_tile[BC] */
    float scale = 1.0f / sqrtf((float)D);
    int nTiles = (S + BC - 1) / BC;

    for (int blockIdx_y = 0; blockIdx_y < B * H; blockIdx_y++) {
        const float *qh = q + (long)blockIdx_y * T * D;
        const float *kh = k + (long)blockIdx_y * S * D;
        const float *vh = v + (long)blockIdx_y * S * D;
        for (int blockIdx_x = 0; blockIdx_x < T; blockIdx_x++) {   /* 每个 block 一个查询 */
            int i = blockIdx_x;
            float *o = out + ((long)blockIdx_y * T + i) * D;
            float m = -INFINITY, l = 0.0f;
            for (int c = 0; c < D; c++) o[c] = 0.0f;
            for (int tile = 0; tile < nTiles; tile++) {
                int j0 = tile * BC;
                /* 最后一块可能不满 */
                int cnt = (tile == nTiles - 1) ? S % BC : BC;
                float tmax = -INFINITY;
                for (int threadIdx = 0; threadIdx < cnt; threadIdx++) {
                    int j = j0 + threadIdx;
                    float s = -INFINITY;
                    if (!causal || j <= i + S - T) {
                        s = 0.0f;
                        for (int c = 0; c < D; c++) s += qh[i * D + c] * kh[j * D + c];
                        s *= scale;
                    }
                    s_tile[threadIdx] = s;
                    tmax = fmaxf(tmax, s);
                }
                if (tmax == -INFINITY) continue;
                float mn = fmaxf(m, tmax), corr = expf(m - mn);
                l *= corr;
                for (int c = 0; c < D; c++) o[c] *= corr;
                for (int threadIdx = 0; threadIdx < cnt; threadIdx++) {
                    float p = expf(s_tile[threadIdx] - mn);
                    l += p;
                    for (int c = 0; c < D; c++) o[c] += p * vh[(j0 + threadIdx) * D + c];
                }
                m = mn;
            }
            for (int c = 0; c < D; c++) o[c] /= l;
            lse[(long)blockIdx_y * T + i] = m + logf(l);
        }
    }
}
