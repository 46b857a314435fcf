/* expect: WA scale_from_int_abs */
#include <math.h>
#include <stdlib.h>

/* x [D] into q8 [D] and *scale, absmax: the largest magnitude maps to 127. */
static void quantize(signed char *q8, float *scale, const float *x, int D)
{
    int amax = 0;
    for (int c = 0; c < D; c++) {
        int a = abs(x[c]);
        amax = a > amax ? a : amax;
    }
    float s = amax / 127.0f;
    *scale = s;
    for (int c = 0; c < D; c++) {
        float r = s > 0.0f ? roundf(x[c] / s) : 0.0f;
        q8[c] = (signed char)(r > 127.0f ? 127.0f : r < -127.0f ? -127.0f : r);
    }
}

void int8_decode_step(float *out, signed char *k_q, signed char *v_q,
                      float *k_scale, float *v_scale, int *len,
                      const float *q, const float *k, const float *v,
                      int B, int S_max, int H, int D)
{
    int row = H * D;   /* one cached position: all heads of one token */
    float scale = 1.0f / sqrtf((float)D);
    float *p = malloc(sizeof(float) * S_max);
    for (int b = 0; b < B; b++) {
        signed char *kq = k_q + (size_t)b * S_max * row, *vq = v_q + (size_t)b * S_max * row;
        float *ks = k_scale + (size_t)b * S_max * H, *vs = v_scale + (size_t)b * S_max * H;
        int n = len[b];
        for (int h = 0; h < H; h++) {
            quantize(kq + n * row + h * D, &ks[n * H + h], k + b * row + h * D, D);
            quantize(vq + n * row + h * D, &vs[n * H + h], v + b * row + h * D, D);
        }
        for (int h = 0; h < H; h++) {
            const float *qh = q + b * row + h * D;
            float max = -INFINITY, sum = 0.0f;
            for (int j = 0; j <= n; j++) {   /* n old keys and the new one, dequantised */
                float s = 0.0f;
                for (int c = 0; c < D; c++) s += qh[c] * (kq[j * row + h * D + c] * ks[j * H + h]);
                p[j] = s * scale;
                if (p[j] > max) max = p[j];
            }
            for (int j = 0; j <= n; j++) {
                p[j] = expf(p[j] - max);
                sum += p[j];
            }
            for (int c = 0; c < D; c++) {
                float acc = 0.0f;
                for (int j = 0; j <= n; j++) acc += p[j] * (vq[j * row + h * D + c] * vs[j * H + h]);
                out[b * row + h * D + c] = acc / sum;
            }
        }
        len[b] = n + 1;
    }
    free(p);
}
