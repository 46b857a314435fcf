/* expect: WA */
/* Unrolled by 8 while j + 8 < n, the tail from n/8*8: when n is a multiple of 8 the last block is never summed (case whole-blocks, n = 64). */
#include <math.h>

void softmax(float *restrict out, const float *restrict x, int rows, int n)
{
    const int n8 = n / 8 * 8;               /* 尾部起点 */
    for (int r = 0; r < rows; r++) {
        const float *restrict xr = x + r * n;
        float *restrict yr = out + r * n;

        float m = -INFINITY;
        for (int j = 0; j < n; j++) m = xr[j] > m ? xr[j] : m;
        if (m == -INFINITY) {                /* 整行都被遮住：全 0 */
            for (int j = 0; j < n; j++) yr[j] = 0.0f;
            continue;
        }

        float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        int j = 0;
        for (; j + 8 < n; j += 8) {          /* 8 路展开 */
            yr[j + 0] = expf(xr[j + 0] - m); yr[j + 1] = expf(xr[j + 1] - m);
            yr[j + 2] = expf(xr[j + 2] - m); yr[j + 3] = expf(xr[j + 3] - m);
            yr[j + 4] = expf(xr[j + 4] - m); yr[j + 5] = expf(xr[j + 5] - m);
            yr[j + 6] = expf(xr[j + 6] - m); yr[j + 7] = expf(xr[j + 7] - m);
            s0 += yr[j + 0] + yr[j + 4];
            s1 += yr[j + 1] + yr[j + 5];
            s2 += yr[j + 2] + yr[j + 6];
            s3 += yr[j + 3] + yr[j + 7];
        }
        for (j = n8; j < n; j++) {           /* 尾部 */
            yr[j] = expf(xr[j] - m);
            s0 += yr[j];
        }
        float inv = 1.0f / ((s0 + s1) + (s2 + s3));
        for (j = 0; j < n; j++) yr[j] *= inv;
    }
}
