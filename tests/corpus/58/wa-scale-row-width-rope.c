/* expect: WA scale_sqrt_hd */
/* 缩放因子用了整行的宽度 1/sqrt(H*D)，而不是单个头的 1/sqrt(D)。
 * (The scale is 1/sqrt(H*D), a whole cache row, not 1/sqrt(D) of one head.) */
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* 把 src 的一个头按 RoPE 转到位置 pos，写进 dst（成对 (i, i + D/2)） */
static void rotate_head(float *dst, const float *src, int D, int pos, int theta)
{
    int half = D / 2;
    for (int i = 0; i < half; i++) {
        double freq = pow((double)theta, -2.0 * i / D);
        double ang = pos * freq;
        float cs = (float)cos(ang), sn = (float)sin(ang);
        float x0 = src[i], x1 = src[i + half];
        dst[i] = x0 * cs - x1 * sn;
        dst[i + half] = x1 * cs + x0 * sn;
    }
}

void rope_decode_step(float *out, float *k_cache, float *v_cache, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D, int theta)
{
    int width = H * D;                           /* 一个位置的所有头 */
    float inv = 1.0f / sqrtf((float)width);      /* 缩放 */
    float *qr = malloc(sizeof(float) * D);
    float *acc = malloc(sizeof(float) * D);

    for (int b = 0; b < B; b++) {
        int pos = len[b];
        float *kb = k_cache + (size_t)b * S_max * width;
        float *vb = v_cache + (size_t)b * S_max * width;
        const float *qt = q + (size_t)b * width;
        const float *kt = k + (size_t)b * width;
        const float *vt = v + (size_t)b * width;

        /* 新的一行：转好的 k，原样的 v */
        for (int h = 0; h < H; h++)
            rotate_head(kb + (size_t)pos * width + h * D, kt + h * D, D, pos, theta);
        memcpy(vb + (size_t)pos * width, vt, sizeof(float) * width);

        for (int h = 0; h < H; h++) {
            rotate_head(qr, qt + h * D, D, pos, theta);
            /* 在线 softmax：一边走一边修正 */
            float m = -INFINITY, l = 0.0f;
            memset(acc, 0, sizeof(float) * D);
            for (int j = 0; j <= pos; j++) {
                const float *kr = kb + (size_t)j * width + h * D;
                const float *vr = vb + (size_t)j * width + h * D;
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qr[c] * kr[c];
                s *= inv;
                float m2 = s > m ? s : m;
                float fix = expf(m - m2), e = expf(s - m2);
                l = l * fix + e;
                for (int c = 0; c < D; c++) acc[c] = acc[c] * fix + e * vr[c];
                m = m2;
            }
            float *o = out + (size_t)b * width + h * D;
            for (int c = 0; c < D; c++) o[c] = acc[c] / l;
        }
        len[b] = pos + 1;
    }
    free(qr);
    free(acc);
}
