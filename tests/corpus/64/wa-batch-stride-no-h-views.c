/* expect: WA cache_batch_stride_no_h */
/* 2D views of each sequence's cache, its start b * S_max * D: H left out, so sequence b's rows fall in sequence b+1's. */
#include <math.h>
#include <stdlib.h>

static void quantize(signed char *q8, float *scale, const float *x, int D)
{
    float top = 0.0f;
    for (int c = 0; c < D; c++) if (fabsf(x[c]) > top) top = fabsf(x[c]);
    *scale = top / 127.0f;
    for (int c = 0; c < D; c++) {
        float r = top > 0.0f ? roundf(x[c] / *scale) : 0.0f;
        if (r > 127.0f) r = 127.0f;
        if (r < -127.0f) r = -127.0f;
        q8[c] = (signed char)r;
    }
}

void int8_decode_step(float *out, signed char *k_q, signed char *v_q,
                      float *k_scale, float *v_scale, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D)
{
    const float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * S_max);
    for (int b = 0; b < B; b++) {
        /* 这个批次的缓存：S_max 个位置 */
        signed char (*kq)[H][D] = (void *)(k_q + (size_t)b * S_max * D);
        signed char (*vq)[H][D] = (void *)(v_q + (size_t)b * S_max * D);
        float (*ks)[H] = (void *)(k_scale + (size_t)b * S_max * H);
        float (*vs)[H] = (void *)(v_scale + (size_t)b * S_max * H);
        int n = len[b];
        for (int h = 0; h < H; h++) {
            quantize(kq[n][h], &ks[n][h], k + ((size_t)b * H + h) * D, D);
            quantize(vq[n][h], &vs[n][h], v + ((size_t)b * H + h) * D, D);
        }
        for (int h = 0; h < H; h++) {
            const float *qh = q + ((size_t)b * H + h) * D;
            float m = -INFINITY, z = 0.0f;
            for (int j = 0; j <= n; j++) {
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qh[c] * (kq[j][h][c] * ks[j][h]);
                p[j] = s * scale;
                if (p[j] > m) m = p[j];
            }
            for (int j = 0; j <= n; j++) { p[j] = expf(p[j] - m); z += p[j]; }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j <= n; j++) acc += p[j] * (vq[j][h][c] * vs[j][h]);
                out[((size_t)b * H + h) * D + c] = acc / z;
            }
        }
        len[b] = n + 1;
    }
    free(p);
}
