/* expect: WA warp_sum_half_lanes */
/* CUDA-style 32-lane tree reduction: the max from offset 16, the sum from offset 8 */
#include <math.h>

#define WARP 32

/* emulate one warp per row: lane l owns columns l, l+32, l+64, ... */
void softmax(float *out, const float *x, int rows, int n)
{
    for (int blockIdx = 0; blockIdx < rows; blockIdx++) {
        const float *xr = x + blockIdx * n;
        float *yr = out + blockIdx * n;
        float smax[WARP], ssum[WARP];   /* "shared memory" */

        for (int threadIdx = 0; threadIdx < WARP; threadIdx++) {
            float m = -INFINITY;
            for (int j = threadIdx; j < n; j += WARP)
                m = fmaxf(m, xr[j]);
            smax[threadIdx] = m;
        }
        for (int off = 16; off > 0; off >>= 1)
            for (int t = 0; t < off; t++)
                smax[t] = fmaxf(smax[t], smax[t + off]);
        float m = smax[0];

        if (m == -INFINITY) {
            for (int j = 0; j < n; j++) yr[j] = 0.0f;
            continue;
        }

        for (int threadIdx = 0; threadIdx < WARP; threadIdx++) {
            float s = 0.0f;
            for (int j = threadIdx; j < n; j += WARP) {
                float e = expf(xr[j] - m);
                yr[j] = e;
                s += e;
            }
            ssum[threadIdx] = s;
        }
        /* sum reduction (__shfl_down_sync style) */
        for (int off = 8; off > 0; off >>= 1)
            for (int t = 0; t < off; t++)
                ssum[t] += ssum[t + off];
        float inv = 1.0f / ssum[0];

        for (int threadIdx = 0; threadIdx < WARP; threadIdx++)
            for (int j = threadIdx; j < n; j += WARP)
                yr[j] *= inv;
    }
}
