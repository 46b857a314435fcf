/* expect: WA dot_last_block_skipped */
/* Q·K 点积按 8 展开，主循环条件写成 c + 8 < D，尾循环从 D/8*8 开始；D 是 8 的倍数时最后 8 维被漏掉 */
#include <math.h>
#include <stdlib.h>

/* 按 8 展开的点积 */
static inline float dot8(const float *restrict a, const float *restrict b, int n)
{
    float s[8] = {0};
    int c = 0;
    for (; c + 8 < n; c += 8)
        for (int u = 0; u < 8; u++) s[u] += a[c + u] * b[c + u];
    for (c = n / 8 * 8; c < n; c++) s[0] += a[c] * b[c];   /* 尾部 */
    return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
}

static void xw(float *y, const float *x, const float *w, int T, int d)
{
    for (int t = 0; t < T; t++)
        for (int j = 0; j < d; j++) {
            float s = 0.0f;
            for (int i = 0; i < d; i++) s += x[t * d + i] * w[i * d + j];
            y[t * d + j] = s;
        }
}

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
        xw(q, x + (size_t)b * T * d, wq, T, d);
        xw(k, x + (size_t)b * T * d, wk, T, d);
        xw(v, x + (size_t)b * T * d, wv, T, d);
        for (int h = 0; h < n_heads; h++)
            for (int i = 0; i < T; i++) {
                float m = -INFINITY;
                for (int j = 0; j < T; j++) {
                    int ok = !(causal && j > i) && !(mask && !mask[b * T + j]);
                    p[j] = ok ? dot8(q + i * d + h * D, k + j * d + h * D, D) * scale : -INFINITY;
                    if (p[j] > m) m = p[j];
                }
                float l = 0.0f;
                for (int j = 0; j < T; j++) { p[j] = p[j] == -INFINITY ? 0.0f : expf(p[j] - m); l += p[j]; }
                for (int c = 0; c < D; c++) {
                    float a = 0.0f;
                    for (int j = 0; j < T; j++) a += p[j] * v[j * d + h * D + c];
                    o[i * d + h * D + c] = l > 0.0f ? a / l : 0.0f;
                }
            }
        xw(out + (size_t)b * T * d, o, wo, T, d);
    }
    free(q); free(k); free(v); free(o); free(p);
}
