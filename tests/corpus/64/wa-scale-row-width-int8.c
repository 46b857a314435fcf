/* expect: WA scale_sqrt_hd */
/* Attention scores are scaled by 1/sqrt(H*D) (all heads of a cached row)
 * rather than 1/sqrt(D) (one head). Quantising and dequantising are right. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

/* symmetric int8: scale = max|x| / 127, round half away from zero */
static float quant_vec(signed char *dst, const float *x, int n)
{
    float amax = 0.0f;
    for (int i = 0; i < n; i++) {
        float a = fabsf(x[i]);
        if (a > amax) amax = a;
    }
    float s = amax / 127.0f;
    for (int i = 0; i < n; i++) {
        long r = 0;
        if (amax > 0.0f) {
            r = lroundf(x[i] / s);
            if (r > 127) r = 127;
            else if (r < -127) r = -127;
        }
        dst[i] = (signed char)r;
    }
    return s;
}

static void dequant_vec(float *dst, const signed char *src, float s, int n)
{
    for (int i = 0; i < n; i++) dst[i] = (float)src[i] * s;
}

void int8_decode_step(float *out, signed char *k_q, signed char *v_q,
                      float *k_scale, float *v_scale, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D)
{
    const float norm = 1.0f / sqrtf((float)H * (float)D);
    float *kbuf = malloc(sizeof(float) * D);
    float *vbuf = malloc(sizeof(float) * D);
    float *score = malloc(sizeof(float) * S_max);
    double *acc = malloc(sizeof(double) * D);

    for (int b = 0; b < B; b++) {
        int n = len[b];
        for (int h = 0; h < H; h++) {
            size_t src = ((size_t)b * H + h) * D;
            size_t row = (((size_t)b * S_max + n) * H + h);
            k_scale[row] = quant_vec(k_q + row * D, k + src, D);
            v_scale[row] = quant_vec(v_q + row * D, v + src, D);
        }

        for (int h = 0; h < H; h++) {
            const float *qh = q + ((size_t)b * H + h) * D;
            float hi = -INFINITY;
            for (int j = 0; j <= n; j++) {
                size_t row = ((size_t)b * S_max + j) * H + h;
                dequant_vec(kbuf, k_q + row * D, k_scale[row], D);
                float d = 0.0f;
                for (int c = 0; c < D; c++) d += qh[c] * kbuf[c];
                score[j] = d * norm;
                if (score[j] > hi) hi = score[j];
            }
            double tot = 0.0;
            for (int c = 0; c < D; c++) acc[c] = 0.0;
            for (int j = 0; j <= n; j++) {
                size_t row = ((size_t)b * S_max + j) * H + h;
                double w = exp((double)score[j] - hi);
                tot += w;
                dequant_vec(vbuf, v_q + row * D, v_scale[row], D);
                for (int c = 0; c < D; c++) acc[c] += w * vbuf[c];
            }
            float *oh = out + ((size_t)b * H + h) * D;
            for (int c = 0; c < D; c++) oh[c] = (float)(acc[c] / tot);
        }
        len[b] = n + 1;
    }
    free(kbuf);
    free(vbuf);
    free(score);
    free(acc);
}
