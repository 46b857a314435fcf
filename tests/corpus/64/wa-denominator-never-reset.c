/* expect: WA sum_not_reset */
/* softmax 的分母 z 只在所有循环之前清零了一次，之后从不重置：
 * 第二个头（以及后面的序列）除以的是前面所有行的和加上自己的。 */
#include <math.h>
#include <stdlib.h>

#define ROW(b, pos, h)  (((b) * S_max + (pos)) * H + (h))   /* 缓存里 (b, pos, h) 的行号 */
#define VEC(b, h)       (((b) * H + (h)) * D)                /* q/k/v/out 里 (b, h) 的起点 */

static void to_int8(signed char *dst, float *scale, const float *x, int D)
{
    float m = 0.0f;
    for (int c = 0; c < D; c++) m = fmaxf(m, fabsf(x[c]));
    *scale = m / 127.0f;
    for (int c = 0; c < D; c++) {
        if (m == 0.0f) { dst[c] = 0; continue; }
        float r = roundf(x[c] / *scale);
        dst[c] = (signed char)(r > 127.0f ? 127.0f : (r < -127.0f ? -127.0f : r));
    }
}

void int8_decode_step(float *out, signed char *k_q, signed char *v_q,
                      float *k_scale, float *v_scale, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D)
{
    float p[66];                /* S_max <= 65：每个位置一个权重 */
    float z = 0.0f;             /* softmax 分母 */
    float r = 1.0f / sqrtf((float)D);

    for (int b = 0; b < B; b++) {
        int n = len[b];
        /* 先把新词元量化写进第 n 行 */
        for (int h = 0; h < H; h++) {
            to_int8(k_q + ROW(b, n, h) * D, &k_scale[ROW(b, n, h)], k + VEC(b, h), D);
            to_int8(v_q + ROW(b, n, h) * D, &v_scale[ROW(b, n, h)], v + VEC(b, h), D);
        }
        for (int h = 0; h < H; h++) {
            const float *qq = q + VEC(b, h);
            float mx = -INFINITY;
            for (int j = 0; j <= n; j++) {
                const signed char *kk = k_q + ROW(b, j, h) * D;
                float sc = k_scale[ROW(b, j, h)], dot = 0.0f;
                for (int c = 0; c < D; c++) dot += qq[c] * (kk[c] * sc);
                p[j] = dot * r;
                mx = p[j] > mx ? p[j] : mx;
            }
            for (int j = 0; j <= n; j++) {
                p[j] = expf(p[j] - mx);
                z += p[j];
            }
            for (int c = 0; c < D; c++) {
                float a = 0.0f;
                for (int j = 0; j <= n; j++)
                    a += p[j] * (v_q[ROW(b, j, h) * D + c] * v_scale[ROW(b, j, h)]);
                out[VEC(b, h) + c] = a / z;
            }
        }
        len[b] = n + 1;
    }
}
