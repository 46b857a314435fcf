/* expect: WA dot_last_block_skipped */
/* 点积按 8 路展开，主循环 c + 8 < D，尾循环从 D - D % 8 开始 */
#include <math.h>
#include <stdlib.h>

static inline float dot8(const float *restrict a, const float *restrict b, int D)
{
    float s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
    int c = 0;
    for (; c + 8 < D; c += 8) {
        s0 += a[c] * b[c];         s1 += a[c + 1] * b[c + 1];
        s2 += a[c + 2] * b[c + 2]; s3 += a[c + 3] * b[c + 3];
        s4 += a[c + 4] * b[c + 4]; s5 += a[c + 5] * b[c + 5];
        s6 += a[c + 6] * b[c + 6]; s7 += a[c + 7] * b[c + 7];
    }
    float s = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));
    for (c = D - D % 8; c < D; c++) s += a[c] * b[c];   /* 尾部 */
    return s;
}

void cross_attention(float *out, const float *q, const float *k, const float *v,
                     const unsigned char *enc_mask, int B, int H, int T, int S, int D)
{
    const float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * S);
    for (int bh = 0; bh < B * H; bh++) {
        const unsigned char *m = enc_mask ? enc_mask + (bh / H) * S : NULL;
        const float *kb = k + (size_t)bh * S * D, *vb = v + (size_t)bh * S * D;
        for (int i = 0; i < T; i++) {
            const float *qi = q + ((size_t)bh * T + i) * D;
            float mx = -INFINITY, sum = 0.0f;
            for (int j = 0; j < S; j++) {
                p[j] = (m && !m[j]) ? -INFINITY : dot8(qi, kb + (size_t)j * D, D) * scale;
                if (p[j] > mx) mx = p[j];
            }
            for (int j = 0; j < S; j++) { p[j] = p[j] == -INFINITY ? 0.0f : expf(p[j] - mx); sum += p[j]; }
            const float inv = sum > 0.0f ? 1.0f / sum : 0.0f;
            float *o = out + ((size_t)bh * T + i) * D;
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j < S; j++) acc += p[j] * vb[(size_t)j * D + c];
                o[c] = acc * inv;
            }
        }
    }
    free(p);
}
